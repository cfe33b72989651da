// The non-blocking and persistent allgather on a communicator that spans nodes: the rounds of
// allgather_across_nodes.hpp taken as the progress engine gives them (the leaders' exchange
// posted and tested by steps that may call MPI). Packing is begin()'s, placing by rank and
// unpacking finish()'s: both in the application's thread.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "progress/operation.hpp"

namespace mcorecoll {

struct Config;

// `block`: the signature bytes each rank contributes; every block together below INT_MAX bytes
// (the caller checks).
std::unique_ptr<Operation> make_iallgather_across_nodes(CommContext& ctx, const Config& config, const void* sendbuf,
                                                        int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                                        int recvcount, MPI_Datatype recvtype, std::uint64_t block);

}  // namespace mcorecoll
