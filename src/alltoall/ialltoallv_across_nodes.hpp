// The persistent alltoallv on a communicator that spans nodes: the rounds of
// alltoallv_across_nodes.hpp taken as the progress engine gives them (the leaders' alltoallv
// posted and tested by steps that may call MPI), with the sizes its ranks agreed on at its
// initialization; the blocks are unpacked at finish().
#pragma once

#include <mpi.h>

#include <memory>

#include "alltoall/alltoallv_across_nodes.hpp"
#include "progress/operation.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// `sizes`: agreed at the initialization (kept by the operation). MPI_IN_PLACE: the receive
// buffer's blocks, as they are at each start, are what is sent.
std::unique_ptr<Operation> make_ialltoallv_across_nodes(CommContext& ctx, const Config& config, AlltoallvSizes sizes,
                                                        const void* sendbuf, const int* sendcounts, const int* sdispls,
                                                        MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                                                        const int* rdispls, MPI_Datatype recvtype);

}  // namespace mcorecoll
