// The hierarchy inside one node, from the places of its ranks: which levels (package, NUMA
// domain, last-level cache) really split the ranks, and the gather/release tree over them.
// Pure logic, unit-tested on synthetic placements.
#pragma once

#include <string>
#include <vector>

#include "topology/placement.hpp"

namespace mcorecoll {

struct NodeHierarchy {
  // Levels below the node, coarse to fine. leader[l][i] is the node rank leading the group of
  // node rank i at level l (the lowest node rank of that group).
  std::vector<std::string> names;
  std::vector<std::vector<int>> leader;

  int size() const { return static_cast<int>(leader.empty() ? 0 : leader[0].size()); }
};

// Levels that leave any rank unplaced (-1: unbound, or a binding that spans domains) are
// dropped, with all finer ones: the node is flat from there down. Levels that do not split
// their parent groups, or leave every rank alone, collapse.
NodeHierarchy build_hierarchy(const std::vector<Place>& places);

// Gather/release tree over a node: parent[i] is the node rank that node rank i reports to
// (-1 for node rank 0, the root). Inside each group, the members report to the leader directly
// (radix 0) or through a `radix`-ary tree ordered by node rank.
std::vector<int> build_tree(const NodeHierarchy& h, int node_size, int radix);

// One line per level, e.g. "package: {0,1} {2,3}".
std::string describe(const NodeHierarchy& h);

}  // namespace mcorecoll
