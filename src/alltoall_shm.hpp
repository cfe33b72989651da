// The shared-memory MPI_Alltoall for communicators inside one node (paper section 4.3): in
// rounds, every rank stages a tile of each outgoing block in its own staging area, then
// gathers its incoming tiles from every peer, starting with the next rank (so that no one
// area is read by everyone at once). Tiles are sized so that one round's staging fits in
// cache: what is copied in is still there when it is copied out. MPI_IN_PLACE works: a tile is
// staged before anyone writes over it.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace mcorecoll {

class CommContext;
struct Config;

// `block`: the signature size of one block (same on every rank). The communicator lies within
// one node and has a shared segment. Returns an MPI error code.
int alltoall_shm(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount,
                 MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                 std::uint64_t block);

}  // namespace mcorecoll
