// MPI_Allreduce and MPI_Reduce on a communicator that spans nodes (of scattered ranks:
// commutative ops only; reduce_calls.cpp sends the others to PMPI). Three phases:
//  1. each node folds its ranks' contributions in rank order at its leader (ReduceRounds,
//     reduce_shm.hpp, with the node leader as root);
//  2. the leaders combine the nodes' partial results on the leaders' communicator: small ones
//     sent to every leader that folds them (up to MCORECOLL_LEADERS_DIRECT_MAX_NODES nodes one message
//     per pair, leader_messages.hpp; beyond, the MPI library's allgather or gather to the
//     root's node) and folded in node order, so the result is the same bits on every rank and
//     in every run; larger ones (every node's partial together above kGatherFoldBytes) with
//     the MPI library's own allreduce or reduce, whose order for commutative ops is its own;
//  3. the result goes from the leader to its node through the node's ring
//     (node/ring_steps.hpp; allreduce: every node; reduce: the root's node, when the root is
//     not its leader).
// Written once, as resumable rounds run by the across-nodes driver (ReduceAcrossNodesRounds,
// progress/across_nodes_phases.hpp): the blocking forms wait between steps, the non-blocking
// and persistent ones (ireduce_across_nodes.hpp) take them as the progress engine gives them.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "common/message_bytes.hpp"
#include "node/ring_steps.hpp"
#include "progress/across_nodes_phases.hpp"
#include "progress/leader_messages.hpp"
#include "reduction/element_layout.hpp"
#include "reduction/reduce_shm.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// Every node's partial result together, in bytes of images, up to which the leaders gather
// and fold them themselves (phase 2).
constexpr std::size_t kGatherFoldBytes = 64 * 1024;

// Where the rounds keep what they hold between steps: the partial where the receive buffer
// is not this rank's to write, the nodes' partials gathered, their fold, and the room of
// deliver() (fold.hpp). The blocking forms lend the communicator's scratch, an operation its own.
struct ReduceRooms {
  std::vector<char>& partial;
  std::vector<char>& gathered;
  std::vector<char>& folded;
  std::vector<char>& packed;
};

class ReduceAcrossNodesRounds : public AcrossNodesPhases<ReduceAcrossNodesRounds> {
 public:
  // `root`: a rank of the communicator, or -1 (allreduce); `bytes`: the signature's size. The
  // datatype's extent is at most kLineBytes, 128 (the smallest staging half any node can fall
  // back to holds one element). `blocking`: the leaders' exchange may wait (the MPI library's
  // blocking collectives; else the non-blocking ones, posted and tested).
  ReduceAcrossNodesRounds(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf, int count,
                          MPI_Datatype type, MPI_Op op, int root, const ElementLayout& layout, std::uint64_t bytes,
                          ReduceRooms rooms, bool blocking);
  // What this rank has done so far (run_rounds, node/wait.hpp).
  std::uint64_t moves() const { return (fold_ ? fold_->moves() : 0) + ring_.moves() + phases_moved(); }

 private:
  friend class AcrossNodesPhases<ReduceAcrossNodesRounds>;
  bool node_step(bool may_call_mpi, int* waiting_on);
  bool leaders_step();
  bool hand_out_step(bool may_call_mpi, int* waiting_on);
  bool post_leaders();
  void combine();

  CommContext& ctx_;
  int count_;
  MPI_Datatype type_;
  MPI_Op op_;
  int root_, root_node_;
  ElementLayout layout_;
  std::uint64_t bytes_;
  ReduceRooms rooms_;
  bool blocking_;
  bool node_gets_result_, hands_out_, gather_fold_, direct_;
  char* target_;  // where this rank's partial, then the result, lies
  std::optional<ReduceRounds> fold_;
  NodeRingSteps ring_;
  std::optional<MessageBytes> result_;
  bool posted_ = false, packed_ = false;
  LeaderMessages leaders_;
};

// The blocking forms. Returns an MPI error code.
int reduce_across_nodes(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf, int count,
                        MPI_Datatype type, MPI_Op op, int root, const ElementLayout& layout,
                        std::uint64_t bytes);

}  // namespace mcorecoll
