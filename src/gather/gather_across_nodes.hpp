// MPI_Gather on a communicator that spans nodes: one message a node. Three phases:
//  1. inside each node, its ranks' blocks gathered at the node's leader in node-rank order
//     (the staged gather of gather_shm.hpp, node rank 0 its root);
//  2. the leaders' PMPI_Gatherv of their nodes' blocks to the root's node's leader, node k's
//     blocks one message (node/node_order.hpp's order);
//  3. on the root's node, where the root is not its leader, every block from the leader to the
//     root (the staged exchange, one tile to one reader); the root puts each block in its place
//     by rank.
// Written once, as resumable rounds run by the across-nodes driver
// (progress/across_nodes_phases.hpp): the blocking gather waits between steps, the non-blocking
// and persistent ones (igather_across_nodes.hpp) take them as the progress engine gives them.
// The steps call MPI only in the leaders' phase; the root's unpacking is the caller's.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "common/block_bytes.hpp"
#include "exchange/staged_exchange.hpp"
#include "node/node_order.hpp"
#include "progress/across_nodes_phases.hpp"
#include "progress/leader_messages.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// The rounds' room: a leader's node blocks (not on the root's node, whose leader gathers in
// place) and every block in node order (the root's node's leader, and the root).
struct GatherRooms {
  std::vector<char> node, all;
};

class GatherAcrossNodesRounds : public AcrossNodesPhases<GatherAcrossNodesRounds> {
 public:
  // `block`: every rank's block in bytes (> 0, or over at once). `own`: this rank's block as
  // bytes (the root's with MPI_IN_PLACE: its block of `recv`, packed). `recv`: the root's
  // blocks, null elsewhere; with `in_place` the root's own is left as it is.
  GatherAcrossNodesRounds(CommContext& ctx, const Config& config, int root, std::uint64_t block, const char* own,
                          BlockBytes* recv, bool in_place, GatherRooms& rooms, bool blocking);
  std::uint64_t moves() const;

 private:
  friend class AcrossNodesPhases<GatherAcrossNodesRounds>;
  bool node_step(bool, int* waiting_on) { return node_->advance(waiting_on); }
  bool leaders_step();
  bool hand_out_step(bool, int* waiting_on);
  void place();

  CommContext& ctx_;
  const Config& config_;
  int root_, root_node_, root_local_;
  std::uint64_t block_, total_;
  BlockBytes* recv_;
  bool in_place_, blocking_;
  bool hands_ = false;  // phase 3 runs: on the root's node, the root not its leader
  NodeOrder order_;
  char* node_blocks_ = nullptr;  // leaders: this node's blocks
  char* all_ = nullptr;          // the root's node's leader, and the root: every block, node order
  std::optional<BlockBytes> gathered_;  // node_blocks_ as the node gather's blocks
  std::optional<ExchangeRounds> node_, hand_;
  bool posted_ = false;
  LeaderMessages leaders_;
};

// The blocking form: the rounds to the end, then the root unpacks. Returns an MPI error code.
int gather_across_nodes(CommContext& ctx, const Config& config, int root, std::uint64_t block, const char* own,
                        BlockBytes* recv, bool in_place);

}  // namespace mcorecoll
