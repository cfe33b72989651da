// The non-blocking and persistent scatter and scatterv inside one node: an operation of the
// progress engine over the staged exchange (exchange/exchange_operation.hpp).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "exchange/exchange_operation.hpp"  // RootBlocks
#include "progress/operation.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// `own`: this rank's block in bytes (its receive side; unused with MPI_IN_PLACE at the root);
// `max_block`: the largest block of all (equal on every rank).
std::unique_ptr<Operation> make_iscatter(CommContext& ctx, const Config& config, int root, const void* sendbuf,
                                         RootBlocks send, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                         MPI_Datatype recvtype, std::uint64_t own, std::uint64_t max_block);

}  // namespace mcorecoll
