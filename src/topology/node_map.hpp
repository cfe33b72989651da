// The ranks of a communicator grouped by node, from every rank's node key (node_key.hpp), in a
// form every rank computes alike: nodes numbered in the order of their first rank, and node
// ranks in communicator-rank order (as MPI_Comm_split_type with key = rank would give).
// Pure logic, unit-tested.
#pragma once

#include <vector>

#include "topology/node_key.hpp"

namespace mcorecoll {

struct NodeMap {
  std::vector<int> node;       // by communicator rank: index of its node
  std::vector<int> node_rank;  // by communicator rank: rank inside its node
  std::vector<std::vector<int>> members;  // by node: its communicator ranks, in node-rank order
  int node_count() const { return static_cast<int>(members.size()); }
};

NodeMap group_by_node(const std::vector<NodeKey>& keys);

}  // namespace mcorecoll
