// The non-blocking and persistent allreduce and reduce on shared memory: ReduceRounds
// (reduce_shm.hpp) as an operation of the progress engine. Only for the pairs whose steps
// call no MPI function (a named type and a predefined op that combine.hpp runs itself, e.g.
// MPI_SUM of MPI_DOUBLE): steps may come from the progress helper, which may not call MPI, and
// a user op or a derived datatype could be freed while the operation runs. The caller checks.
#pragma once

#include <mpi.h>

#include <memory>

#include "progress/operation.hpp"
#include "reduction/element_layout.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// `algorithm`: ReduceRounds'.
std::unique_ptr<Operation> make_ireduce(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf,
                                        int count, MPI_Datatype type, MPI_Op op, int root,
                                        const ElementLayout& layout, int algorithm);

}  // namespace mcorecoll
