// MPI_Allreduce and MPI_Reduce of large messages on a communicator that spans nodes, over every
// rank of a node at once (lanes; Traff's full-lane collectives, UCC's split_rail): where one
// leader a node would carry the node's whole vector across the network, each of the node's n
// ranks carries 1/n of it. Three phases:
//  1. inside each node, the ranks' vectors reduce-scattered: node rank r gets slice r of the
//     node's partial, folded in node-rank order (ReduceRounds by blocks, reduce_shm.hpp);
//  2. each slice reduced across the nodes by the MPI library's own allreduce (reduce: reduce,
//     to the root's node) on the slice's lane, the ranks of equal node rank
//     (lanes.hpp), every lane at once;
//  3. inside each node that gets the result (every node; reduce: the root's), the slices
//     gathered (AllgatherRounds, allgather_shm.hpp).
// Each node hands the network each byte of the vector once, spread over all its ranks (a
// reduce's root node none). Blocking forms only; nodes of equal size, contiguous types (the
// slices are the vector's bytes).
#pragma once

#include <mpi.h>

#include "reduction/element_layout.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// Why a reduction on `ctx` cannot take the lanes (null: it can); equal on every rank.
const char* reduction_lanes_refusal(const CommContext& ctx, MPI_Op op, const ElementLayout& layout, bool blocking);

// The three phases; `root`: a rank of the communicator (reduce), or -1 (allreduce). Collective
// over `ctx`'s communicator.
int reduce_lanes(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf, int count,
                 MPI_Datatype type, MPI_Op op, int root, const ElementLayout& layout);

}  // namespace mcorecoll
