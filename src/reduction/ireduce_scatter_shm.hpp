// The non-blocking and persistent MPI_Reduce_scatter_block and MPI_Reduce_scatter inside one
// node, as the blocking form (reduce_scatter_shm.hpp), the same bits: a vector larger than a
// record line through the staged rounds of this rank's block (ReduceRounds, reduce_shm.hpp),
// delivered as they go; one of a line through the small allreduce into the operation's own
// scratch (operations of one communicator may be in flight together, so not the
// communicator's), this rank's block handed to its receive buffer at finish(); across nodes,
// the allreduce's rounds across nodes (reduce_across_nodes.hpp) into that scratch likewise. Only
// for named types and ops that combine() folds without MPI (the caller checks), as for
// MPI_Iallreduce.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "progress/operation.hpp"
#include "reduction/element_layout.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// As reduce_scatter_shm(): `input` the whole vector of `total` elements (the send buffer, or
// the receive buffer with MPI_IN_PLACE), this rank's block `count` elements from `first`.
std::unique_ptr<Operation> make_ireduce_scatter(CommContext& ctx, const Config& config, const void* input,
                                                void* recvbuf, int total, int first, int count, MPI_Datatype type,
                                                MPI_Op op, const ElementLayout& whole, const ElementLayout& block,
                                                std::uint64_t bytes);

}  // namespace mcorecoll
