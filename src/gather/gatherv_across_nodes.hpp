// MPI_Gatherv on a communicator that spans nodes: one message a node, as MPI_Gather's
// (gather_across_nodes.hpp), with blocks of their own sizes, once the ranks agreed on them
// (exchange/rooted_sizes.hpp: the round that gives every rank the largest block and every
// leader every node's bytes):
//  1. inside each node, its ranks' blocks gathered at the leader in node-rank order (the staged
//     gather of gather_shm.hpp); the root's own block never leaves it;
//  2. the leaders' PMPI_Gatherv of their nodes' blocks to the root's node's leader;
//  3. on the root's node, where the root is not its leader, the whole from the leader to the
//     root (the staged exchange, one tile to one reader); the root puts each block in its place.
// Blocking only: the non-blocking and persistent forms are the MPI library's across nodes.
#pragma once

#include <cstdint>

#include "common/block_bytes.hpp"
#include "exchange/rooted_sizes.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// The gather once every rank took mcorecoll's path by `sizes.largest`. `own`: this rank's block
// as bytes (not the root's). `recv`: the root's blocks (null elsewhere); `mine`: the root's own
// block as bytes, or null with MPI_IN_PLACE. The root unpacks. Returns an MPI error code.
int gatherv_across_nodes(CommContext& ctx, const Config& config, int root, const RootedSizes& sizes,
                         const char* own, std::uint64_t own_size, BlockBytes* recv, const char* mine,
                         std::uint64_t mine_size);

}  // namespace mcorecoll
