#include "topology/hierarchy.hpp"

#include <map>
#include <sstream>
#include <tuple>

namespace mcorecoll {
namespace {

using Key = std::vector<int>;

// Leader of each rank's group, where groups are ranks with equal keys.
std::vector<int> leaders_of(const std::vector<Key>& keys) {
  std::map<Key, int> first;
  std::vector<int> leader(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    auto it = first.emplace(keys[i], static_cast<int>(i)).first;
    leader[i] = it->second;
  }
  return leader;
}

}  // namespace

NodeHierarchy build_hierarchy(const std::vector<Place>& places) {
  NodeHierarchy h;
  const std::size_t n = places.size();
  std::vector<Key> keys(n);                       // nested key: all coarser levels, then this one
  std::vector<int> parent_leader(n, 0);           // the node itself is the top group
  const struct {
    const char* name;
    int Place::*field;
  } kinds[] = {{"package", &Place::package}, {"numa", &Place::numa}, {"cache", &Place::cache}};

  for (const auto& kind : kinds) {
    bool placed = true;
    for (const Place& p : places) placed = placed && p.*(kind.field) >= 0;
    if (!placed) break;  // unbound or spanning: flat from this level down
    for (std::size_t i = 0; i < n; ++i) keys[i].push_back(places[i].*(kind.field));
    const std::vector<int> leader = leaders_of(keys);
    const bool splits = leader != parent_leader;
    bool all_alone = true;
    for (std::size_t i = 0; i < n; ++i) all_alone = all_alone && leader[i] == static_cast<int>(i);
    if (splits && !all_alone) {
      h.names.push_back(kind.name);
      h.leader.push_back(leader);
      parent_leader = leader;
    }
  }
  return h;
}

std::vector<int> build_tree(const NodeHierarchy& h, int node_size, int radix) {
  std::vector<int> parent(node_size, -1);
  // Group members at each level, from the node down. At level l a group's members are the
  // ranks that lead their group one level finer (all ranks at the finest level).
  const int levels = static_cast<int>(h.leader.size());
  for (int l = -1; l < levels; ++l) {
    std::map<int, std::vector<int>> groups;  // leader -> members, leader first (lowest rank)
    for (int i = 0; i < node_size; ++i) {
      const bool leads_below = l + 1 >= levels || h.leader[l + 1][i] == i;
      if (!leads_below) continue;
      const int leader = l < 0 ? 0 : h.leader[l][i];
      groups[leader].push_back(i);
    }
    for (const auto& [leader, members] : groups) {
      for (std::size_t m = 1; m < members.size(); ++m) {
        const std::size_t up = radix > 0 ? (m - 1) / static_cast<std::size_t>(radix) : 0;
        parent[members[m]] = members[up];
      }
    }
  }
  return parent;
}

std::string describe(const NodeHierarchy& h) {
  std::ostringstream out;
  for (std::size_t l = 0; l < h.leader.size(); ++l) {
    out << h.names[l] << ":";
    std::map<int, std::vector<int>> groups;
    for (std::size_t i = 0; i < h.leader[l].size(); ++i) groups[h.leader[l][i]].push_back(static_cast<int>(i));
    for (const auto& [leader, members] : groups) {
      out << " {";
      for (std::size_t m = 0; m < members.size(); ++m) out << (m ? "," : "") << members[m];
      out << "}";
    }
    out << "\n";
  }
  if (h.leader.empty()) out << "flat\n";
  return out.str();
}

}  // namespace mcorecoll
