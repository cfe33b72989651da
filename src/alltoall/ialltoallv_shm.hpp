// The persistent alltoallv inside one node: an operation of the progress engine over the staged
// exchange (exchange/exchange_operation.hpp).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "progress/operation.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// The persistent alltoallv; `max_block` as above. MPI_IN_PLACE: the receive buffer's blocks,
// as they are at each start, are what is sent.
std::unique_ptr<Operation> make_ialltoallv(CommContext& ctx, const Config& config, const void* sendbuf,
                                           const int* sendcounts, const int* sdispls, MPI_Datatype sendtype,
                                           void* recvbuf, const int* recvcounts, const int* rdispls,
                                           MPI_Datatype recvtype, std::uint64_t max_block);

}  // namespace mcorecoll
