#include "topology/node_map.hpp"

#include <map>
#include <tuple>

namespace mcorecoll {

NodeMap group_by_node(const std::vector<NodeKey>& keys) {
  NodeMap map;
  map.node.resize(keys.size());
  map.node_rank.resize(keys.size());
  using Id = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t>;
  std::map<Id, int> index_of;  // node key -> node index, numbered by first rank
  for (std::size_t r = 0; r < keys.size(); ++r) {
    const NodeKey& k = keys[r];
    const auto [it, added] = index_of.emplace(Id{k.boot_hi, k.boot_lo, k.pid_namespace, k.pretend},
                                              static_cast<int>(map.members.size()));
    if (added) map.members.emplace_back();
    auto& members = map.members[static_cast<std::size_t>(it->second)];
    map.node[r] = it->second;
    map.node_rank[r] = static_cast<int>(members.size());
    members.push_back(static_cast<int>(r));
  }
  return map;
}

}  // namespace mcorecoll
