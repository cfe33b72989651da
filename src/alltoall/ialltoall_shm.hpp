// The non-blocking alltoall on shared memory: the blocking algorithms (alltoall_shm.hpp,
// alltoall_single_copy.hpp) as state machines. A step stages a round's tiles when their half
// of the staging areas is free, copies the tiles of every peer that has posted, and, on a node
// leader across nodes, runs the round's exchange with PMPI_Ialltoallv; with single copy, a
// step pulls the block of every peer that has posted its buffer.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "progress/operation.hpp"

namespace mcorecoll {

struct Config;

// As alltoall_shm() / alltoall_single_copy(), whose checks the caller has made. The staging
// areas are asked for at the first step (try_staging_areas: the lease may change, and every node
// rank then needs the leader's answer). The send data is packed before this returns.
std::unique_ptr<Operation> make_ialltoall(CommContext& ctx, const Config& config, const void* sendbuf,
                                          int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                          int recvcount, MPI_Datatype recvtype, std::uint64_t block,
                                          bool single_copy);

}  // namespace mcorecoll
