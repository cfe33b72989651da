// The single-copy MPI_Alltoall inside one node: every rank posts where its send data is, then
// reads its block straight from every peer's memory with Cross Memory Attach, staggered and
// with at most k readers on one peer at a time. One copy per block instead of staging's two;
// for large blocks, where staging loses to the MPI library's own single copy.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace mcorecoll {

class CommContext;
struct Config;

// `block`: the signature size of one block (same on every rank). The communicator lies on one
// node, has its shared segment, and single copy was probed to work. MPI_IN_PLACE works: the
// send data is copied aside first, as peers read it while this rank overwrites its buffer.
// Returns an MPI error code.
int alltoall_single_copy(CommContext& ctx, const Config& config, const void* sendbuf,
                         int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                         MPI_Datatype recvtype, std::uint64_t block);

// The two halves, shared with the non-blocking alltoall (ialltoall_shm.cpp): post this rank's
// send data `out` for operation `seq`; copy this rank's block from node rank `r` (its own from
// `out`) into its place in `recv`, once r has posted. A refused read stops the job.
void post_send_data(CommContext& ctx, const char* out, std::uint64_t seq);
void pull_block(CommContext& ctx, int r, const char* out, char* recv, std::uint64_t block);

}  // namespace mcorecoll
