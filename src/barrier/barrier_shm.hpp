// The shared-memory barrier's two algorithms (decisions/node_algorithms.hpp):
//  tree: the hierarchical barrier (paper section 4.1): one gather up the node's tree (ranks ->
//        their group leaders -> the node leader), the node leaders' exchange when the
//        communicator spans nodes, then one release back down the same tree;
//  poll: inside one node, every rank posts its arrival and polls everyone else's: one line
//        transfer of latency instead of two, for n - 1 reads per rank (the node's choice up to
//        MCORECOLL_BARRIER_ALL_POLL_MAX ranks).
//
// Written once, as resumable rounds (BarrierRounds): the blocking barrier waits inside its steps,
// the non-blocking and persistent ones (ibarrier_shm.hpp) take them as the progress engine
// gives them. Every barrier also carries one bit per rank up the tree and the OR of all back
// down (node_vote).
#pragma once

#include <mpi.h>

#include <cstdint>

#include "node/wait.hpp"
#include "progress/leader_messages.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

class BarrierRounds {
 public:
  // `mine`: the bit this rank carries. `waiter`: a blocking form's, with which the steps wait
  // where they would stop (node/wait.hpp's arrived()) and whose leaders' exchange across nodes
  // waits; none for an operation of the progress engine. `algorithm`: kBarrierPoll,
  // kBarrierTree or the node's choice (kBarrierShm); across nodes always the tree.
  BarrierRounds(CommContext& ctx, const Config& config, bool mine, Waiter* waiter, int algorithm);
  // Does what it can without waiting; true once this rank is released (then rc and any() are
  // final). Where it waits for a node rank, *waiting_on says which; it stops where it would
  // call MPI unless `may_call_mpi`.
  bool advance(bool may_call_mpi, int* waiting_on);
  // The OR of the bits of the node's ranks (across nodes the bits stay inside each node).
  bool any() const { return bit_ != 0; }
  int rc = MPI_SUCCESS;

 private:
  enum class Phase { start, poll_all, gather, leaders, wait_release, done };
  void arrive();
  void release_children();

  CommContext& ctx_;
  const bool all_poll_;
  const bool direct_;  // the leaders: one message a pair (leader_messages.hpp)
  Waiter* const waiter_;
  Phase phase_ = Phase::start;
  std::uint64_t seq_ = 0, turn_ = 0, bit_ = 0;
  int next_ = 0;  // the peers (poll_all: offsets, gather: children) before this one have arrived
  bool leaders_posted_ = false;
  LeaderMessages leaders_;
};

// The communicator's shared segment must exist (ctx.channel.shm). Returns an MPI error code.
int barrier_shm(CommContext& ctx, const Config& config, int algorithm);

// The barrier inside one node (ctx.node_count 1; the node's choice) carrying one bit per rank.
// Returns the OR of the bits on every rank: how the ranks agree on a fact each knows only of
// itself.
bool node_vote(CommContext& ctx, const Config& config, bool mine);

}  // namespace mcorecoll
