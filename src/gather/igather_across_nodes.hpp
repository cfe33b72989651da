// The non-blocking and persistent gather, and the persistent gatherv, on a communicator that
// spans nodes: the rounds of gather_across_nodes.hpp taken as the progress engine gives them (the
// leaders' gatherv posted and tested by steps that may call MPI); the root unpacks at finish().
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "exchange/exchange_operation.hpp"
#include "exchange/rooted_sizes.hpp"
#include "progress/operation.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// `sizes`: the blocks' sizes, kept by the operation (a gather's: equal_rooted_sizes(); a
// persistent gatherv's: agreed at its initialization). `own_bytes`: this rank's send side in
// bytes. `blocks`: the root's receive side (a gather's count, or a gatherv's counts and
// displacements).
std::unique_ptr<Operation> make_igather_across_nodes(CommContext& ctx, const Config& config, int root,
                                                     RootedSizes sizes, const void* sendbuf, int sendcount,
                                                     MPI_Datatype sendtype, std::uint64_t own_bytes, void* recvbuf,
                                                     RootBlocks blocks, MPI_Datatype recvtype);

}  // namespace mcorecoll
