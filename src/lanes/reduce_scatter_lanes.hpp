// MPI_Reduce_scatter_block and MPI_Reduce_scatter of large vectors on a communicator that spans
// nodes, over every rank of a node at once (lanes): where the allreduce's composition has the
// node leaders carry the whole vector across the network, each of a node's ranks carries the
// blocks of its lane. Two phases:
//  1. inside each node, the ranks' vectors reduce-scattered (ReduceRounds by blocks,
//     reduce_shm.hpp) so that node rank r gets the node's partial of its lane's blocks: the
//     blocks of the ranks of node rank r on every node, in node order (each rank's vector put in
//     that order first: one copy of it);
//  2. those reduce-scattered across the nodes by the MPI library's own reduce-scatter on the
//     lane (lanes.hpp), every lane at once: each rank gets the total of its own block.
// Each node hands the network the vector once, spread over all its ranks. Blocking forms only;
// nodes of equal size; contiguous types (reduction_lanes_refusal(), reduce_lanes.hpp) of
// elements up to 128 bytes, and across nodes whose ranks are not consecutive commutative ops
// only (across_nodes_refusal(), reduction_checks.hpp).
#pragma once

#include <mpi.h>

#include "reduction/element_layout.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// `input`: the whole vector of `total` elements (in place: the receive buffer); `counts`: every
// rank's block, in elements (null: every block `count`, MPI_Reduce_scatter_block); the result
// into `recvbuf`. Collective over `ctx`'s communicator.
int reduce_scatter_lanes(CommContext& ctx, const Config& config, const void* input, void* recvbuf, int total,
                         const int* counts, int count, MPI_Datatype type, MPI_Op op, const ElementLayout& layout);

}  // namespace mcorecoll
