// The non-blocking and persistent allgatherv on a communicator that spans nodes: the rounds of
// allgatherv_across_nodes.hpp taken as the progress engine gives them (the leaders' exchange
// posted and tested by steps that may call MPI). Packing is begin()'s, placing by rank and
// unpacking finish()'s: both in the application's thread.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "progress/operation.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// `own`: this rank's send side in bytes (MPI_IN_PLACE: unused); every block together below
// INT_MAX bytes (the caller checks).
std::unique_ptr<Operation> make_iallgatherv_across_nodes(CommContext& ctx, const Config& config, const void* sendbuf,
                                                         int sendcount, MPI_Datatype sendtype, std::uint64_t own,
                                                         void* recvbuf, const int* recvcounts, const int* displs,
                                                         MPI_Datatype recvtype);

}  // namespace mcorecoll
