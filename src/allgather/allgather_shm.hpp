// MPI_Allgather inside one node through the staging areas: the alltoall's rounds with one block
// for all. Each round every rank stages a tile of its block once, then copies every rank's tile
// into its place in the receive buffer, staggered with at most MCORECOLL_ALLTOALL_READERS
// readers on one area.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace mcorecoll {

class CommContext;
struct Config;

// `block`: the signature bytes each rank contributes (> 0 or the call returns at once).
int allgather_shm(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount,
                  MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                  std::uint64_t block);

}  // namespace mcorecoll
