// The non-blocking and persistent forms of the collectives inside one node whose sizes every
// rank knows when it calls (gather, scatter, allgatherv, scan, exscan): the staged exchange's
// rounds (staged_exchange.hpp, ExchangeRounds) as operations of the progress engine. Packing
// is begin()'s and unpacking (and the scans' fold) finish()'s, in the application's thread;
// the steps call no MPI function. The callers (the families' *_calls.cpp) route and check
// first, as for the blocking forms.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "progress/operation.hpp"
#include "reduction/element_layout.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// `block`: every rank's block in bytes (equal on every rank).
std::unique_ptr<Operation> make_igather(CommContext& ctx, const Config& config, int root, const void* sendbuf,
                                        int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                        MPI_Datatype recvtype, std::uint64_t block);
std::unique_ptr<Operation> make_iscatter(CommContext& ctx, const Config& config, int root, const void* sendbuf,
                                         int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                         MPI_Datatype recvtype, std::uint64_t block);
// `own`: this rank's send side in bytes (MPI_IN_PLACE: unused).
std::unique_ptr<Operation> make_iallgatherv(CommContext& ctx, const Config& config, const void* sendbuf,
                                            int sendcount, MPI_Datatype sendtype, std::uint64_t own, void* recvbuf,
                                            const int* recvcounts, const int* displs, MPI_Datatype recvtype);
// Named types and ops that combine() folds without MPI only (the caller checks).
std::unique_ptr<Operation> make_iscan(CommContext& ctx, const Config& config, bool exclusive, const void* sendbuf,
                                      void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                                      const ElementLayout& layout);

}  // namespace mcorecoll
