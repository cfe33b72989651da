// MPI_Scatterv on a communicator that spans nodes: one message a node, as MPI_Scatter's
// (scatter_across_nodes.hpp), with blocks of their own sizes, once the ranks agreed on them
// (exchange/rooted_sizes.hpp: the round that gives every rank the largest block and every
// leader every node's bytes):
//  1. the root lays every block but its own out in node order; on the root's node, where the
//     root is not its leader, the whole from the root to the leader (the staged exchange, one
//     tile to one reader); the root's own block never leaves it;
//  2. the leaders' PMPI_Scatterv from the root's node's leader, node k's blocks one message to
//     node k's leader;
//  3. inside each node, the leader's blocks scattered to its ranks in node-rank order (the
//     staged scatter of scatter_shm.hpp, node rank 0 its root).
// Blocking only: the non-blocking and persistent forms are the MPI library's across nodes.
#pragma once

#include <cstdint>

#include "common/block_bytes.hpp"
#include "exchange/rooted_sizes.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// The scatter once every rank took mcorecoll's path by `sizes.largest`. `send`: the root's
// blocks, packed (null elsewhere). `into`: this rank's receive bytes (`into_size` of them), null
// where it receives nothing (the root in place, or arguments the MPI library must judge). The
// caller unpacks. Returns an MPI error code.
int scatterv_across_nodes(CommContext& ctx, const Config& config, int root, const RootedSizes& sizes,
                          BlockBytes* send, char* into, std::uint64_t into_size);

}  // namespace mcorecoll
