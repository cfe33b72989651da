// MPI_Allgather of large blocks on a communicator that spans nodes, over every rank of a node at
// once (lanes; Traff's full-lane allgather): where the leaders' composition has one rank a node
// carry the node's blocks across the network, each rank carries its own. Two phases:
//  1. each rank's block across the nodes by the MPI library's own allgather on its lane (the
//     ranks of its node rank, one a node; lanes.hpp), every lane at once: node rank r then holds
//     the blocks of node rank r of every node;
//  2. inside each node, for each node in turn, its n blocks gathered from the n lanes
//     (AllgatherRounds, allgather_shm.hpp) into their ranks' places: straight into the receive
//     bytes where that node's ranks are consecutive, else through a room of n blocks.
// Each node hands the network its ranks' blocks once, each from its own rank. Written once, as
// rounds run by the across-nodes driver (every rank in the middle phase: its lane; no node phase
// before it): the blocking form waits between steps, the non-blocking and persistent ones
// (make_iallgather_lanes) post the lane's MPI_Iallgather and test it. Nodes of equal size; any
// datatype (as bytes), in place too.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "allgather/allgather_shm.hpp"
#include "lanes/lanes.hpp"
#include "progress/across_nodes_phases.hpp"
#include "progress/operation.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// This rank's lane (a block of each node), and one node's blocks where its ranks are not
// consecutive. Kept on the communicator by the blocking form, on the operation by the others.
struct AllgatherLanesRooms {
  std::vector<char> lane, node;
};

class AllgatherLanesRounds : public AcrossNodesPhases<AllgatherLanesRounds> {
 public:
  // `out`: this rank's block, `all`: every rank's, as bytes (allgather_bytes.hpp); `block` > 0.
  AllgatherLanesRounds(CommContext& ctx, const Config& config, const char* out, char* all, std::uint64_t block,
                       AllgatherLanesRooms& rooms, bool blocking);
  std::uint64_t moves() const;

 private:
  friend class AcrossNodesPhases<AllgatherLanesRounds>;
  bool node_step(bool, int*) { return true; }
  bool leaders_step();
  bool hand_out_step(bool, int* waiting_on);

  CommContext& ctx_;
  const Config& config_;
  const char* out_;
  char* all_;
  std::uint64_t block_;
  bool blocking_;
  MPI_Comm lanes_;
  AllgatherLanesRooms& rooms_;
  int node_ = 0;  // the node whose blocks the node phase gathers now
  std::optional<AllgatherRounds> gather_;
  std::uint64_t gathered_ = 0;  // moves of the node gathers done
  LaneCall lane_;
};

// `block`: one rank's block, bytes (every rank's alike). Collective over `ctx`'s communicator.
int allgather_lanes(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                    void* recvbuf, int recvcount, MPI_Datatype recvtype, std::uint64_t block);

// The non-blocking and persistent forms (the lanes' communicator made already).
std::unique_ptr<Operation> make_iallgather_lanes(CommContext& ctx, const Config& config, const void* sendbuf,
                                                 int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                                 MPI_Datatype recvtype, std::uint64_t block);

}  // namespace mcorecoll
