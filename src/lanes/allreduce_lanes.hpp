// MPI_Allreduce of large messages on a communicator that spans nodes, over every rank of a node
// at once (lanes; Traff's full-lane collectives, UCC's split_rail): where one leader a node
// would carry the node's whole vector across the network, each of the node's n ranks carries
// 1/n of it. Three phases:
//  1. inside each node, the ranks' vectors reduce-scattered: node rank r gets slice r of the
//     node's partial, folded in node-rank order (ReduceRounds by blocks, reduce_shm.hpp);
//  2. each slice reduced across the nodes by the MPI library's own allreduce on the slice's
//     lane, the ranks of equal node rank (CommContext::lanes_comm, made at the first call
//     that takes the lanes), every lane at once;
//  3. inside each node, the slices gathered by every rank (AllgatherRounds, allgather_shm.hpp).
// Each node sends each byte of the vector across the network once in the MPI library's
// allreduce of one lane a slice, spread over all its ranks. Blocking form only; nodes of equal
// size, contiguous types (the slices are the vector's bytes).
#pragma once

#include <mpi.h>

#include "reduction/element_layout.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// Why an allreduce on `ctx` cannot take the lanes (null: it can); equal on every rank.
const char* lanes_refusal(const CommContext& ctx, MPI_Op op, const ElementLayout& layout, bool blocking);

// The three phases; collective over `ctx`'s communicator. Where the node's staging areas are too
// small for one element (every rank alike), the MPI library's allreduce.
int allreduce_lanes(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf, int count,
                    MPI_Datatype type, MPI_Op op, const ElementLayout& layout);

}  // namespace mcorecoll
