// The non-blocking and persistent allreduce and reduce on a communicator that spans nodes: the
// rounds of reduce_across_nodes.hpp taken as the progress engine gives them (the leaders'
// exchange posted and tested by steps that may call MPI). Only for what ireduce_shm.hpp allows
// (a named type, an op combine() runs itself): the folds may run in the progress helper. Such
// a type is contiguous: no packing.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "progress/operation.hpp"
#include "reduction/element_layout.hpp"

namespace mcorecoll {

struct Config;

std::unique_ptr<Operation> make_ireduce_across_nodes(CommContext& ctx, const Config& config, const void* sendbuf,
                                                     void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                                                     int root, const ElementLayout& layout, std::uint64_t bytes);

}  // namespace mcorecoll
