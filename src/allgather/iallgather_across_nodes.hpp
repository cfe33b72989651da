// The non-blocking and persistent allgather on a communicator that spans nodes:
// allgather_across_nodes.hpp's three phases as an operation of the progress engine: the node's
// blocks gathered inside it (AllgatherRounds), the leaders' exchange (leader_messages.hpp, or
// PMPI_Iallgatherv beyond kDirectExchangeMaxNodes nodes; posted and tested by steps that may
// call MPI), every node's blocks through the node's ring (NodeRingSteps).
// Packing is begin()'s, placing by rank and unpacking finish()'s: both in the application's
// thread.
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
