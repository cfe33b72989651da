// MPI_Allgather on a communicator that spans nodes. Three phases:
//  1. inside each node, every rank gets its node's blocks (AllgatherRounds, allgather_shm.hpp);
//  2. the node leaders exchange their nodes' blocks (leaders_allgather.hpp: one message per
//     pair of leaders, or the MPI library's allgatherv among them): one message per node
//     instead of one per rank;
//  3. each leader hands every node's blocks to its node through the node's ring
//     (node/ring_steps.hpp), and each rank puts them in rank order (nodes of scattered ranks: a
//     block at a time).
// Written once, as resumable rounds run by the across-nodes driver (AllgatherAcrossNodesRounds,
// progress/across_nodes_phases.hpp): the blocking allgather waits between steps, the
// non-blocking and persistent ones (iallgather_across_nodes.hpp) take them as the progress
// engine gives them.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "allgather/allgather_shm.hpp"
#include "node/node_order.hpp"
#include "allgather/leaders_allgather.hpp"
#include "node/ring_steps.hpp"
#include "progress/across_nodes_phases.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// Kept on the communicator (its kept states) for the blocking allgather and allgatherv across
// nodes, one at a time: every block in node order, where that is not where the user's buffer
// has them.
struct AllgatherRooms {
  std::vector<char> in_node_order;
};

class AllgatherAcrossNodesRounds : public AcrossNodesPhases<AllgatherAcrossNodesRounds> {
 public:
  // `out`: this rank's block (`block` bytes); `all`: room for every block in `order`.
  // `blocking`: the leaders' exchange may wait.
  AllgatherAcrossNodesRounds(CommContext& ctx, const Config& config, const char* out, char* all,
                             const NodeOrder& order, std::uint64_t block, bool blocking);
  // What this rank has done so far (run_rounds, node/wait.hpp).
  std::uint64_t moves() const { return node_.moves() + ring_.moves() + phases_moved(); }

 private:
  friend class AcrossNodesPhases<AllgatherAcrossNodesRounds>;
  // Phase 1: this node's blocks, in node-rank order, on every rank of the node.
  bool node_step(bool, int* waiting_on) { return node_.advance(waiting_on); }
  bool leaders_step();
  // Phase 3: the leader's view of every node's blocks to its node.
  bool hand_out_step(bool, int* waiting_on) {
    return ring_.step(all_, static_cast<std::uint64_t>(ctx_.size) * block_, 0, waiting_on);
  }

  CommContext& ctx_;
  char* all_;
  const NodeOrder& order_;
  std::uint64_t block_;
  AllgatherRounds node_;
  NodeRingSteps ring_;
  LeadersAllgather leaders_;
};

// `block`: the signature bytes each rank contributes (> 0 or the call returns at once).
int allgather_across_nodes(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount,
                           MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                           std::uint64_t block);

}  // namespace mcorecoll
