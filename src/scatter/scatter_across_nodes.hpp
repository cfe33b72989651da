// MPI_Scatter and MPI_Scatterv on a communicator that spans nodes: one message a node. The
// blocks' sizes come first (exchange/rooted_sizes.hpp: a scatter's from its arguments, a
// scatterv's from a round of agreement); then three phases:
//  1. the root lays every block but its own out in node order (node/node_order.hpp); on the
//     root's node, where the root is not its leader, the whole from the root to the leader (the
//     staged exchange, one tile to one reader); the root's own block never leaves it;
//  2. the leaders' PMPI_Scatterv from the root's node's leader, node k's blocks one message to
//     node k's leader;
//  3. inside each node, the leader's blocks scattered to its ranks in node-rank order (the
//     staged scatter of scatter_shm.hpp, node rank 0 its root).
// Written once, as resumable rounds run by the across-nodes driver
// (progress/across_nodes_phases.hpp): the blocking forms wait between steps, the non-blocking
// and persistent ones (iscatter_across_nodes.hpp) take them as the progress engine gives them.
// The steps call MPI only in the leaders' phase; unpacking is the caller's.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "common/block_bytes.hpp"
#include "exchange/rooted_sizes.hpp"
#include "exchange/staged_exchange.hpp"
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
  // `sizes`: the blocks' sizes (equal on every rank as rooted_sizes.hpp says; kept by
  // reference, it outlives the rounds). `send`: the root's blocks, packed (null elsewhere).
  // `own`: this rank's receive bytes (`own_size` of them), null where it takes nothing (the root
  // in place).
  ScatterAcrossNodesRounds(CommContext& ctx, const Config& config, int root, const RootedSizes& sizes,
                           BlockBytes* send, char* own, std::uint64_t own_size, ScatterRooms& rooms, bool blocking);
  std::uint64_t moves() const;

 private:
  friend class AcrossNodesPhases<ScatterAcrossNodesRounds>;
  bool node_step(bool, int* waiting_on);
  bool leaders_step();
  bool hand_out_step(bool, int* waiting_on);

  CommContext& ctx_;
  const Config& config_;
  int root_node_, root_local_;
  const RootedSizes& sizes_;
  char* own_;
  std::uint64_t own_size_;
  bool blocking_;
  bool hands_in_ = false;  // phase 1 runs: on the root's node, the root not its leader
  char* node_blocks_ = nullptr;  // leaders: this node's blocks
  char* all_ = nullptr;          // the root's node's leader, and the root: every block but the root's, node order
  std::vector<int> counts_, displs_;     // leaders: this node's blocks by node rank
  std::optional<BlockBytes> scattered_;  // node_blocks_ as the node scatter's blocks
  std::optional<ExchangeRounds> hand_in_, node_;
  bool posted_ = false;
  LeaderMessages leaders_;
};

// The blocking forms. Returns an MPI error code.
int scatter_across_nodes(CommContext& ctx, const Config& config, int root, const RootedSizes& sizes, BlockBytes* send,
                         char* own, std::uint64_t own_size);

}  // namespace mcorecoll
