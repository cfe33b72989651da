// MPI_Allgatherv on a communicator that spans nodes: one message a node pair, whatever the block
// sizes (every rank knows every block's size from its arguments, so no header round). Three
// phases, those of the allgather across nodes (allgather_across_nodes.hpp) with blocks of
// their own sizes:
//  1. inside each node, its ranks' blocks gathered at the node's leader in node-rank order
//     (the staged exchange, exchange/staged_exchange.hpp, node rank 0 its one reader);
//  2. the node leaders exchange their nodes' bytes (leaders_allgather.hpp: one message per
//     pair of leaders, or the MPI library's allgatherv among them);
//  3. each leader hands every node's bytes to its node through the node's ring
//     (node/ring_steps.hpp), and each rank puts every block in its place (the caller).
// Every block lies in (node, node rank) order (node/node_order.hpp's NodeOrderBytes) in a room
// of the call's total; placing it by rank is one more copy of the total a rank, the price of
// blocks that may lie anywhere in the receive buffer.
// Written once, as resumable rounds run by the across-nodes driver
// (progress/across_nodes_phases.hpp): the blocking allgatherv waits between steps, the
// non-blocking and persistent ones (iallgatherv_across_nodes.hpp) take them as the progress
// engine gives them. The steps call MPI only in the leaders' phase.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "common/block_bytes.hpp"
#include "exchange/staged_exchange.hpp"
#include "node/node_order.hpp"
#include "allgather/leaders_allgather.hpp"
#include "node/ring_steps.hpp"
#include "progress/across_nodes_phases.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

class AllgathervAcrossNodesRounds : public AcrossNodesPhases<AllgathervAcrossNodesRounds> {
 public:
  // `own`: this rank's block (order's size of it); `all`: room for order.total bytes.
  // `blocking`: the leaders' exchange may wait.
  AllgathervAcrossNodesRounds(CommContext& ctx, const Config& config, const char* own, char* all,
                              const NodeOrderBytes& order, bool blocking);
  std::uint64_t moves() const { return (node_ ? node_->moves() : 0) + ring_.moves() + phases_moved(); }

 private:
  friend class AcrossNodesPhases<AllgathervAcrossNodesRounds>;
  bool node_step(bool, int* waiting_on) { return node_->advance(waiting_on); }
  bool leaders_step();
  bool hand_out_step(bool, int* waiting_on) { return ring_.step(all_, order_.total, 0, waiting_on); }

  CommContext& ctx_;
  char* all_;
  const NodeOrderBytes& order_;
  std::optional<ExchangeRounds> node_;
  NodeRingSteps ring_;
  LeadersAllgather leaders_;
};

// Every block from `all` (node order) to its place in `recv` (by rank), but `skip` (-1: none).
void place_by_rank(const CommContext& ctx, const NodeOrderBytes& order, const char* all, BlockBytes& recv, int skip);

// The blocking form. `own`: this rank's block as bytes (with MPI_IN_PLACE its block of `recv`,
// packed); `recv`: every rank's block (below INT_MAX bytes in all), but this rank's own, which
// is the caller's to place (allgather_bytes.hpp). Returns an MPI error code.
int allgatherv_across_nodes(CommContext& ctx, const Config& config, const char* own, BlockBytes& recv);

}  // namespace mcorecoll
