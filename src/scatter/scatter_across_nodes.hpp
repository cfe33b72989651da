// MPI_Scatter on a communicator that spans nodes: one message a node. Three phases:
//  1. on the root's node, where the root is not its leader, every block from the root to the
//     leader (the staged exchange, one tile to one reader), in node order
//     (node/node_order.hpp);
//  2. the leaders' PMPI_Scatterv from the root's node's leader, node k's blocks one message to
//     node k's leader;
//  3. inside each node, the leader's blocks scattered to its ranks (the staged scatter of
//     scatter_shm.hpp, node rank 0 its root).
// Written once, as resumable rounds run by the across-nodes driver
// (progress/across_nodes_phases.hpp): the blocking scatter waits between steps, the
// non-blocking and persistent ones (iscatter_across_nodes.hpp) take them as the progress
// engine gives them. The steps call MPI only in the leaders' phase; unpacking is the caller's.
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

// The rounds' room: a leader's node blocks (not on the root's node, whose leader scatters from
// its copy of every block) and every block in node order (the root's node's leader, and the
// root).
struct ScatterRooms {
  std::vector<char> node, all;
};

class ScatterAcrossNodesRounds : public AcrossNodesPhases<ScatterAcrossNodesRounds> {
 public:
  // `block`: every rank's block in bytes (> 0, or over at once). `send`: the root's blocks,
  // packed (null elsewhere). `own`: this rank's receive bytes, null for the root in place.
  ScatterAcrossNodesRounds(CommContext& ctx, const Config& config, int root, std::uint64_t block, BlockBytes* send,
                           char* own, ScatterRooms& rooms, bool blocking);
  std::uint64_t moves() const;

 private:
  friend class AcrossNodesPhases<ScatterAcrossNodesRounds>;
  bool node_step(bool, int* waiting_on);
  bool leaders_step();
  bool hand_out_step(bool, int* waiting_on);

  CommContext& ctx_;
  const Config& config_;
  int root_node_, root_local_;
  std::uint64_t block_, total_;
  char* own_;
  bool blocking_;
  bool hands_in_ = false;  // phase 1 runs: on the root's node, the root not its leader
  NodeOrder order_;
  char* node_blocks_ = nullptr;  // leaders: this node's blocks
  char* all_ = nullptr;          // the root's node's leader, and the root: every block, node order
  std::optional<BlockBytes> scattered_;  // node_blocks_ as the node scatter's blocks
  std::optional<ExchangeRounds> hand_in_, node_;
  bool posted_ = false;
  LeaderMessages leaders_;
};

// The blocking form. Returns an MPI error code.
int scatter_across_nodes(CommContext& ctx, const Config& config, int root, std::uint64_t block, BlockBytes* send,
                         char* own);

}  // namespace mcorecoll
