// MPI_Allgather of large blocks on a communicator that spans nodes, over every rank of a node at
// once (lanes; Traff's full-lane allgather): where the leaders' composition has one rank a node
// carry the node's blocks across the network, each rank carries its own. Two phases:
//  1. each rank's block across the nodes by the MPI library's own allgather on its lane (the
//     ranks of its node rank, one a node; lanes.hpp), every lane at once: node rank r then holds
//     the blocks of node rank r of every node;
//  2. inside each node, for each node in turn, its n blocks gathered from the n lanes
//     (AllgatherRounds, allgather_shm.hpp) into their ranks' places: straight into the receive
//     bytes where that node's ranks are consecutive, else through a room of n blocks.
// Each node hands the network its ranks' blocks once, each from its own rank. Blocking form
// only; nodes of equal size; any datatype (as bytes), in place too.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace mcorecoll {

class CommContext;
struct Config;

// `block`: one rank's block, bytes (every rank's alike). Collective over `ctx`'s communicator.
int allgather_lanes(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                    void* recvbuf, int recvcount, MPI_Datatype recvtype, std::uint64_t block);

}  // namespace mcorecoll
