// The non-blocking and persistent gather on a communicator that spans nodes: the rounds of
// gather_across_nodes.hpp taken as the progress engine gives them (the leaders' gatherv posted
// and tested by steps that may call MPI); the root unpacks at finish().
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "progress/operation.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// `block`: every rank's block in bytes (equal on every rank).
std::unique_ptr<Operation> make_igather_across_nodes(CommContext& ctx, const Config& config, int root,
                                                     const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                                     void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                                     std::uint64_t block);

}  // namespace mcorecoll
