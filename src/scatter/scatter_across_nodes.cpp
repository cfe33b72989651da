#include "scatter/scatter_across_nodes.hpp"

#include <algorithm>

#include "common/scratch_room.hpp"
#include "node/comm_context.hpp"
#include "node/node_order.hpp"
#include "node/transfer_count.hpp"
#include "node/wait.hpp"
#include "scatter/scatter_shm.hpp"

namespace mcorecoll {

ScatterAcrossNodesRounds::ScatterAcrossNodesRounds(CommContext& ctx, const Config& config, int root,
                                                   const RootedSizes& sizes, BlockBytes* send, char* own,
                                                   std::uint64_t own_size, ScatterRooms& rooms, bool blocking)
    : AcrossNodesPhases(ctx.node_rank == 0), ctx_(ctx), config_(config),
      root_node_(ctx.places[static_cast<std::size_t>(root)].node),
      root_local_(ctx.places[static_cast<std::size_t>(root)].node_rank), sizes_(sizes), own_(own),
      own_size_(own_size), blocking_(blocking) {
  const bool is_root = ctx.rank == root;
  if (is_root) {
    if (own) copy_bytes(own, send->data(root), std::min(own_size, send->size(root)));
    own_ = nullptr;  // the root takes nothing more
  }
  // Every rank knows the whole's bytes: where only the root's own block has any, nothing moves.
  if (sizes.total == 0) {
    nothing_to_do();
    return;
  }
  const bool root_node = ctx.node_index == root_node_;
  if (root_node && (leader() || is_root)) all_ = scratch_room(rooms.all, sizes.total);
  if (is_root) {
    // Every block but its own in node order. (A program whose ranks disagree with the root on
    // their sizes, which the MPI library would not judge alike either: the root lays out its
    // own sizes and moves no more than the ranks agreed on.)
    std::vector<std::uint64_t> blocks = send->sizes();
    blocks[static_cast<std::size_t>(root)] = 0;
    const NodeOrderBytes order(ctx, blocks);
    for (int r = 0; r < ctx.size; ++r) {
      const std::size_t i = static_cast<std::size_t>(r);
      if (order.at[i] + blocks[i] <= sizes.total) copy_bytes(all_ + order.at[i], send->data(r), blocks[i]);
    }
  }
  if (leader()) {
    const std::size_t me = static_cast<std::size_t>(ctx.node_index);
    node_blocks_ = root_node ? all_ + sizes.displs[me] : scratch_room(rooms.node, std::max(sizes.totals[me], 1));
    sizes.node_layout(&counts_, &displs_);
    scattered_.emplace(node_blocks_, ctx.node_size, counts_.data(), displs_.data(), MPI_BYTE);
  }
  hands_in_ = root_node && root_local_ != 0;
}

std::uint64_t ScatterAcrossNodesRounds::moves() const {
  return (hand_in_ ? hand_in_->moves() : 0) + (node_ ? node_->moves() : 0) + phases_moved();
}

// Phase 1, on the root's node: every block from the root to its leader, where they differ.
bool ScatterAcrossNodesRounds::node_step(bool, int* waiting_on) {
  if (!hands_in_) return true;
  if (!hand_in_)  // made when phase 1 begins (it claims its line or areas at its first step)
    hand_in_.emplace(hand_over_rounds(ctx_, config_, /*from*/ root_local_, /*to*/ 0, all_, sizes_.total));
  return hand_in_->advance(waiting_on);
}

// Phase 2: node k's blocks, one message, from the root's node's leader (in place there).
bool ScatterAcrossNodesRounds::leaders_step() {
  const std::size_t me = static_cast<std::size_t>(ctx_.node_index);
  void* recv = static_cast<int>(me) == root_node_ ? MPI_IN_PLACE : node_blocks_;
  const int* counts = sizes_.totals.data();
  const int* displs = sizes_.displs.data();
  if (blocking_ || !posted_)
    count_network(MCORECOLL_NETWORK_SCATTERV, -1,
                  recv == MPI_IN_PLACE ? sizes_.total - static_cast<std::uint64_t>(counts[me]) : 0);
  if (blocking_) {
    keep(PMPI_Scatterv(all_, counts, displs, MPI_BYTE, recv, counts[me], MPI_BYTE, root_node_, ctx_.leaders_comm));
    return true;
  }
  if (!posted_) {
    posted_ = true;
    leaders_.clear();
    leaders_.post_library([&](MPI_Request* r) {
      return PMPI_Iscatterv(all_, counts, displs, MPI_BYTE, recv, counts[me], MPI_BYTE, root_node_, ctx_.leaders_comm,
                            r);
    });
  }
  int scattered = MPI_SUCCESS;
  if (!leaders_.test(&scattered)) return false;
  keep(scattered);
  return true;
}

// Phase 3: the leader's blocks to its node's ranks; its own block to itself.
bool ScatterAcrossNodesRounds::hand_out_step(bool, int* waiting_on) {
  static char nothing = 0;  // what a rank that takes nothing (the root) reads into
  if (!node_)
    node_.emplace(scatter_rounds(ctx_, config_, /*node rank*/ 0, sizes_.largest, own_ ? own_ : &nothing,
                                 own_ ? own_size_ : 0, scattered_ ? &*scattered_ : nullptr));
  if (!node_->advance(waiting_on)) return false;
  if (leader() && own_) copy_bytes(own_, scattered_->data(0), std::min(own_size_, sizes_.node_blocks[0]));
  return true;
}

int scatter_across_nodes(CommContext& ctx, const Config& config, int root, const RootedSizes& sizes, BlockBytes* send,
                         char* own, std::uint64_t own_size) {
  ScatterAcrossNodesRounds rounds(ctx, config, root, sizes, send, own, own_size, ctx.kept.get<ScatterRooms>(), true);
  return rounds.run_to_end(ctx, config);
}

}  // namespace mcorecoll
