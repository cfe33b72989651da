// The non-blocking and persistent alltoall on shared memory: the alltoall's rounds
// (alltoall_shm.hpp) taken as the progress engine gives them; across nodes the leaders'
// exchange of a round is PMPI_Ialltoallv, posted, then tested.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "progress/operation.hpp"

namespace mcorecoll {

struct Config;

// As alltoall_shm(), whose checks the caller has made. The send data is packed at begin().
std::unique_ptr<Operation> make_ialltoall(CommContext& ctx, const Config& config, const void* sendbuf,
                                          int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                          int recvcount, MPI_Datatype recvtype, std::uint64_t block,
                                          bool single_copy);

}  // namespace mcorecoll
