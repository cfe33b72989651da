// The paper's limited-concurrency copy-out (section 4.2): the readers of a broadcast (every
// node rank but the source) form groups of at most k, and in step s of a round over m parts of
// the message, group g reads part (g + s) mod m. Groups start on different parts, so while
// they keep pace no part has more than ceil(groups / m) groups of readers (one when there are
// parts enough), and no one memory controller or cache serves everyone at once. Pure logic,
// unit-tested on its own.
#pragma once

#include <cstdint>
#include <vector>

#include "decisions/config.hpp"  // kReadersByHierarchyGroup

namespace mcorecoll {

struct ReaderGroups {
  std::vector<int> group;  // by node rank; -1 for the source
  int count = 0;           // groups that have a reader
};

// `cap`: at most this many readers per group, in node-rank order (0: one group of all), or
// kReadersByHierarchyGroup with `hierarchy_leader` the leader of each node rank's group (empty
// on a flat node: then one group of all).
ReaderGroups reader_groups(int node_size, int source, int cap,
                           const std::vector<int>& hierarchy_leader);

// The part that `group` reads in step `step` of a round over `parts` parts.
inline std::uint64_t rotating_part(int group, std::uint64_t step, std::uint64_t parts) {
  return (static_cast<std::uint64_t>(group) + step) % parts;
}

}  // namespace mcorecoll
