// The non-blocking and persistent allgather on shared memory: AllgatherRounds
// (allgather_shm.hpp) as an operation of the progress engine. Packing is begin()'s and
// unpacking finish()'s, in the application's thread; the steps call no MPI function.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "progress/operation.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

std::unique_ptr<Operation> make_iallgather(CommContext& ctx, const Config& config, const void* sendbuf,
                                           int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                           MPI_Datatype recvtype, std::uint64_t block, int algorithm);

}  // namespace mcorecoll
