#include "node/reader_schedule.hpp"

namespace mcorecoll {

ReaderGroups reader_groups(int node_size, int source, int cap,
                           const std::vector<int>& hierarchy_leader) {
  ReaderGroups out;
  out.group.assign(static_cast<std::size_t>(node_size), -1);
  const bool by_hierarchy = cap == kReadersByHierarchyGroup && !hierarchy_leader.empty();
  // Groups are numbered in the order of their first reader.
  std::vector<int> number_of_leader(by_hierarchy ? static_cast<std::size_t>(node_size) : 0, -1);
  int reader = 0;  // readers counted in node-rank order
  for (int r = 0; r < node_size; ++r) {
    if (r == source) continue;
    int g = 0;
    if (by_hierarchy) {
      int& number = number_of_leader[static_cast<std::size_t>(hierarchy_leader[static_cast<std::size_t>(r)])];
      if (number < 0) number = out.count;
      g = number;
    } else if (cap > 0) {
      g = reader / cap;
    }
    out.group[static_cast<std::size_t>(r)] = g;
    if (g + 1 > out.count) out.count = g + 1;
    ++reader;
  }
  return out;
}

}  // namespace mcorecoll
