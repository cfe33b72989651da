// MPI_Reduce_scatter_block and MPI_Reduce_scatter inside one node: the staged allreduce
// (reduce_shm.hpp: combined in rank order, the same bits on every rank and in every run) of the
// whole vector into scratch, then this rank's block handed to its receive buffer. Each element
// is folded once; the result's other blocks are copied to every rank, which a dedicated
// reduce-scatter would spare (doc/design/node-only-collectives.md).
#pragma once

#include <mpi.h>

#include <vector>

#include "reduction/element_layout.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// `input`: the whole vector of `total` elements (the send buffer, or the receive buffer with
// MPI_IN_PLACE); this rank's block is `count` elements from element `first`. `whole` and
// `block`: element_layout()'s answers for `total` and `count` elements.
int reduce_scatter_shm(CommContext& ctx, const Config& config, const void* input, void* recvbuf, int total,
                       int first, int count, MPI_Datatype type, MPI_Op op, const ElementLayout& whole,
                       const ElementLayout& block);

}  // namespace mcorecoll
