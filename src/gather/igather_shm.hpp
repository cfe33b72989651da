// The non-blocking and persistent gather and gatherv inside one node: an operation of the progress
// engine over the staged exchange (exchange/exchange_operation.hpp).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "exchange/exchange_operation.hpp"  // RootBlocks
#include "progress/operation.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// `own`: this rank's block in bytes (its send side; unused with MPI_IN_PLACE at the root);
// `max_block`: the largest block of all (equal on every rank).
std::unique_ptr<Operation> make_igather(CommContext& ctx, const Config& config, int root, const void* sendbuf,
                                        int sendcount, MPI_Datatype sendtype, std::uint64_t own, void* recvbuf,
                                        RootBlocks recv, MPI_Datatype recvtype, std::uint64_t max_block);

}  // namespace mcorecoll
