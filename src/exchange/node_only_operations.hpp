// The non-blocking and persistent forms of the collectives inside one node whose sizes every
// rank knows when it calls (gather, scatter, allgatherv, scan, exscan), and the persistent
// v-forms (gatherv, scatterv, alltoallv), whose ranks agree on the largest block when they
// initialize: the staged exchange's rounds (staged_exchange.hpp, ExchangeRounds) as operations
// of the progress engine. Packing
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

// The root's blocks of a gather or scatter: `count` elements each, one after another, or
// (gatherv, scatterv) counts[i] elements at displs[i] extents.
struct RootBlocks {
  int count = 0;
  const int* counts = nullptr;
  const int* displs = nullptr;
};

// `own`: this rank's block in bytes (gather: its send side, scatter: its receive side; unused
// with MPI_IN_PLACE at the root); `max_block`: the largest block of all (equal on every rank).
std::unique_ptr<Operation> make_igather(CommContext& ctx, const Config& config, int root, const void* sendbuf,
                                        int sendcount, MPI_Datatype sendtype, std::uint64_t own, void* recvbuf,
                                        RootBlocks recv, MPI_Datatype recvtype, std::uint64_t max_block);
std::unique_ptr<Operation> make_iscatter(CommContext& ctx, const Config& config, int root, const void* sendbuf,
                                         RootBlocks send, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                         MPI_Datatype recvtype, std::uint64_t own, std::uint64_t max_block);
// The persistent alltoallv; `max_block` as above. MPI_IN_PLACE: the receive buffer's blocks,
// as they are at each start, are what is sent.
std::unique_ptr<Operation> make_ialltoallv(CommContext& ctx, const Config& config, const void* sendbuf,
                                           const int* sendcounts, const int* sdispls, MPI_Datatype sendtype,
                                           void* recvbuf, const int* recvcounts, const int* rdispls,
                                           MPI_Datatype recvtype, std::uint64_t max_block);
// `own`: this rank's send side in bytes (MPI_IN_PLACE: unused).
std::unique_ptr<Operation> make_iallgatherv(CommContext& ctx, const Config& config, const void* sendbuf,
                                            int sendcount, MPI_Datatype sendtype, std::uint64_t own, void* recvbuf,
                                            const int* recvcounts, const int* displs, MPI_Datatype recvtype);
// Named types and ops that combine() folds without MPI only (the caller checks).
std::unique_ptr<Operation> make_iscan(CommContext& ctx, const Config& config, bool exclusive, const void* sendbuf,
                                      void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                                      const ElementLayout& layout);

}  // namespace mcorecoll
