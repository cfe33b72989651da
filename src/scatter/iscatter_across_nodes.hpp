// The non-blocking and persistent scatter, and the persistent scatterv, on a communicator that
// spans nodes: the rounds of scatter_across_nodes.hpp taken as the progress engine gives them
// (the leaders' scatterv posted and tested by steps that may call MPI); each rank unpacks its
// block at finish().
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

// `sizes`: the blocks' sizes, kept by the operation (a scatter's: equal_rooted_sizes(); a
// persistent scatterv's: agreed at its initialization). `blocks`: the root's send side (a
// scatter's count, or a scatterv's counts and displacements). `own_bytes`: this rank's receive
// side in bytes.
std::unique_ptr<Operation> make_iscatter_across_nodes(CommContext& ctx, const Config& config, int root,
                                                      RootedSizes sizes, const void* sendbuf, RootBlocks blocks,
                                                      MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                                      MPI_Datatype recvtype, std::uint64_t own_bytes);

}  // namespace mcorecoll
