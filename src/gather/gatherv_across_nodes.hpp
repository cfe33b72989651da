// MPI_Gatherv on a communicator that spans nodes: one message a node, as MPI_Gather's
// (gather_across_nodes.hpp), with blocks of their own sizes. Only the root knows every block's
// size, so a round of agreement comes first (agree_gatherv_sizes):
//  1. every rank posts its block's bytes on its node's header line (the root: the largest block
//     it receives, or kNotOurs where its arguments are the MPI library's to judge); each leader
//     reads its node's, adds them up, and the leaders exchange their nodes' totals and largest
//     (one PMPI_Allgather of 16 bytes a node);
//  2. each leader posts the call's largest block on a second line for its node's ranks.
// Then every rank routes alike by the largest, and the gather itself (gatherv_across_nodes):
//  3. inside each node, its ranks' blocks gathered at the leader in node-rank order (the staged
//     gather of gather_shm.hpp); the root's own block never leaves it;
//  4. the leaders' PMPI_Gatherv of their nodes' blocks to the root's node's leader (every
//     leader knows every node's total from step 1);
//  5. on the root's node, where the root is not its leader, the whole from the leader to the
//     root (the staged exchange, one tile to one reader); the root puts each block in its place.
// Blocking only: the non-blocking and persistent forms are the MPI library's across nodes.
#pragma once

#include <cstdint>
#include <vector>

#include "common/block_bytes.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// What the round of agreement gives: equal on every rank but the sizes, which only the leaders
// hold.
struct GathervSizes {
  std::uint64_t largest = 0;              // the call's largest block, or kNotOurs: every rank to PMPI
  std::uint64_t total = 0;                 // every node's bytes together (the root's own block not counted)
  std::vector<std::uint64_t> node_blocks;  // a leader's: its node's blocks by node rank (the root's 0)
  std::vector<int> totals;                 // a leader's: every node's bytes, by node
};

// `header`: this rank's block's bytes (0 where its own arguments are invalid: it takes part with
// nothing), the root's the largest block it receives or kNotOurs. Collective over the
// communicator (its node lines, the leaders' communicator). Returns an MPI error code in *rc.
GathervSizes agree_gatherv_sizes(CommContext& ctx, const Config& config, int root, std::uint64_t header, int* rc);

// Steps 3-5 once every rank took mcorecoll's path by `sizes.largest`. `own`: this rank's block
// as bytes (not the root's). `recv`: the root's blocks (null elsewhere); `mine`: the root's own
// block as bytes, or null with MPI_IN_PLACE. The root unpacks. Returns an MPI error code.
int gatherv_across_nodes(CommContext& ctx, const Config& config, int root, const GathervSizes& sizes,
                         const char* own, std::uint64_t own_size, BlockBytes* recv, const char* mine,
                         std::uint64_t mine_size);

}  // namespace mcorecoll
