// Where every rank's block lies when a communicator's blocks travel node by node: in (node,
// node rank) order, node k's blocks together. The order of the collectives across nodes that
// move one block a rank (allgather, gather, scatter): the leaders' part moves node k's blocks
// as one message. Alike on every rank: the node sizes and the block (the standard makes every
// rank's equal).
#pragma once

#include <cstdint>
#include <vector>

namespace mcorecoll {

class CommContext;

struct NodeOrder {
  NodeOrder(const CommContext& ctx, std::uint64_t block);
  std::vector<int> first;           // node k's blocks start at block first[k] (k = 0..nodes)
  std::vector<int> counts, displs;  // node k's bytes and where they start (below INT_MAX in all)
  // Where rank r's block lies in this order (in blocks).
  int at(const CommContext& ctx, int r) const;
  // Each rank's block from `all` (this order) to its place in `recv` (rank order).
  void place_by_rank(const CommContext& ctx, const char* all, char* recv, std::uint64_t block) const;
};

// The same order for blocks whose sizes differ by rank (allgatherv, where every rank knows every
// block's size from the arguments): alike on every rank too.
struct NodeOrderBytes {
  // `block_sizes`: every rank's block in bytes, by rank (below INT_MAX in all: the caller checks).
  NodeOrderBytes(const CommContext& ctx, const std::vector<std::uint64_t>& block_sizes);
  std::vector<int> counts, displs;  // node k's bytes and where they start
  std::vector<std::uint64_t> sizes, at;  // rank r's block: its bytes and where it starts
  std::uint64_t total = 0;
};

}  // namespace mcorecoll
