// The non-blocking and persistent allgatherv inside one node: an operation of the progress engine
// over the staged exchange (exchange/exchange_operation.hpp).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "progress/operation.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// `own`: this rank's send side in bytes (MPI_IN_PLACE: unused).
std::unique_ptr<Operation> make_iallgatherv(CommContext& ctx, const Config& config, const void* sendbuf,
                                            int sendcount, MPI_Datatype sendtype, std::uint64_t own, void* recvbuf,
                                            const int* recvcounts, const int* displs, MPI_Datatype recvtype);

}  // namespace mcorecoll
