// MPI_Gather and MPI_Gatherv on a communicator that spans nodes: one message a node. The
// blocks' sizes come first (exchange/rooted_sizes.hpp: a gather's from its arguments, a
// gatherv's from a round of agreement); then three phases:
//  1. inside each node, its ranks' blocks gathered at the node's leader in node-rank order
//     (the staged gather of gather_shm.hpp, node rank 0 its root); the root's own block never
//     leaves it;
//  2. the leaders' PMPI_Gatherv of their nodes' blocks to the root's node's leader, node k's
//     blocks one message (node/node_order.hpp's order);
//  3. on the root's node, where the root is not its leader, every block from the leader to the
//     root (the staged exchange, one tile to one reader); the root puts each block in its place
//     by rank.
// Written once, as resumable rounds run by the across-nodes driver
// (progress/across_nodes_phases.hpp): the blocking forms wait between steps, the non-blocking
// and persistent ones (igather_across_nodes.hpp) take them as the progress engine gives them.
// The steps call MPI only in the leaders' phase; the root's unpacking is the caller's.
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

// The rounds' room: a leader's node blocks (not on the root's node, whose leader gathers in
// place) and every block in node order (the root's node's leader, and the root).
struct GatherRooms {
  std::vector<char> node, all;
};

class GatherAcrossNodesRounds : public AcrossNodesPhases<GatherAcrossNodesRounds> {
 public:
  // `sizes`: the blocks' sizes (equal on every rank as rooted_sizes.hpp says; kept by reference,
  // it outlives the rounds). `own`: this rank's block as bytes, `own_size` of them (not the
  // root's; null: it gives nothing). `recv`: the root's blocks, null elsewhere; `mine`: the
  // root's own block as bytes (`mine_size` of them), null in place.
  GatherAcrossNodesRounds(CommContext& ctx, const Config& config, int root, const RootedSizes& sizes, const char* own,
                          std::uint64_t own_size, BlockBytes* recv, const char* mine, std::uint64_t mine_size,
                          GatherRooms& rooms, bool blocking);
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
  const RootedSizes& sizes_;
  BlockBytes* recv_;
  bool blocking_;
  bool hands_ = false;  // phase 3 runs: on the root's node, the root not its leader
  char* node_blocks_ = nullptr;  // leaders: this node's blocks
  char* all_ = nullptr;          // the root's node's leader, and the root: every block but the root's, node order
  std::vector<int> counts_, displs_;    // leaders: this node's blocks by node rank
  std::optional<BlockBytes> gathered_;  // node_blocks_ as the node gather's blocks
  std::optional<ExchangeRounds> node_, hand_;
  bool posted_ = false;
  LeaderMessages leaders_;
};

// The blocking forms: the rounds to the end, then the root unpacks. Returns an MPI error code.
int gather_across_nodes(CommContext& ctx, const Config& config, int root, const RootedSizes& sizes, const char* own,
                        std::uint64_t own_size, BlockBytes* recv, const char* mine, std::uint64_t mine_size);

}  // namespace mcorecoll
