// MPI_Reduce and MPI_Allreduce inside one node, through the staging areas (node/call_areas):
// in rounds of as many elements as half a staging area holds, every rank stages the image of
// its contribution, then
//  - small rounds: the rank(s) that need the result fold every contribution in rank order;
//  - large rounds (every rank's slice at least kSliceMinBytes): reduce-scatter by slices, rank
//    s folds slice s of every contribution in rank order and leaves the result in its own
//    staging area, from which the rank(s) that need it copy every slice (an allgather).
// Either way each element is folded once, in one order (combine.hpp), so every rank gets the
// same bits, run after run.
#pragma once

#include <mpi.h>

#include "reduction/element_layout.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// Bytes of a slice below which a round is folded whole by the rank(s) that need it.
constexpr std::size_t kSliceMinBytes = 2048;

// `root`: the rank that gets the result, or -1 for every rank (allreduce). `sendbuf` may be
// MPI_IN_PLACE where the standard allows it (every rank for allreduce, the root for reduce).
// The communicator lies on one node; `layout` is element_layout()'s answer for the call.
int reduce_shm(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf, int count,
               MPI_Datatype type, MPI_Op op, int root, const ElementLayout& layout);

}  // namespace mcorecoll
