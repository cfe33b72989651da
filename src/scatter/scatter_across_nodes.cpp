#include "scatter/scatter_across_nodes.hpp"

#include "common/scratch_room.hpp"
#include "node/transfer_count.hpp"
#include "node/comm_context.hpp"
#include "node/wait.hpp"
#include "scatter/scatter_shm.hpp"

namespace mcorecoll {

ScatterAcrossNodesRounds::ScatterAcrossNodesRounds(CommContext& ctx, const Config& config, int root,
                                                   std::uint64_t block, BlockBytes* send, char* own,
                                                   ScatterRooms& rooms, bool blocking)
    : AcrossNodesPhases(ctx.node_rank == 0), ctx_(ctx), config_(config),
      root_node_(ctx.places[static_cast<std::size_t>(root)].node),
      root_local_(ctx.places[static_cast<std::size_t>(root)].node_rank), block_(block),
      total_(static_cast<std::uint64_t>(ctx.size) * block), own_(own), blocking_(blocking), order_(ctx, block) {
  if (block == 0) {
    nothing_to_do();
    return;
  }
  const bool root_node = ctx.node_index == root_node_;
  if (root_node && (leader() || ctx.rank == root)) all_ = scratch_room(rooms.all, total_);
  if (ctx.rank == root)  // every block in node order
    for (int r = 0; r < ctx.size; ++r)
      copy_bytes(all_ + static_cast<std::uint64_t>(order_.at(ctx, r)) * block, send->data(r), block);
  if (leader()) {
    node_blocks_ = root_node ? all_ + order_.displs[static_cast<std::size_t>(root_node_)]
                             : scratch_room(rooms.node, static_cast<std::size_t>(ctx.node_size) * block);
    scattered_.emplace(node_blocks_, ctx.node_size, static_cast<int>(block), MPI_BYTE);
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
    hand_in_.emplace(hand_over_rounds(ctx_, config_, /*from*/ root_local_, /*to*/ 0, all_, total_));
  return hand_in_->advance(waiting_on);
}

// Phase 2: node k's blocks, one message, from the root's node's leader (in place there).
bool ScatterAcrossNodesRounds::leaders_step() {
  const std::size_t me = static_cast<std::size_t>(ctx_.node_index);
  void* recv = static_cast<int>(me) == root_node_ ? MPI_IN_PLACE : node_blocks_;
  if (blocking_ || !posted_)
    count_network(MCORECOLL_NETWORK_SCATTERV, -1,
                  recv == MPI_IN_PLACE ? total_ - static_cast<std::uint64_t>(order_.counts[me]) : 0);
  if (blocking_) {
    keep(PMPI_Scatterv(all_, order_.counts.data(), order_.displs.data(), MPI_BYTE, recv, order_.counts[me], MPI_BYTE,
                       root_node_, ctx_.leaders_comm));
    return true;
  }
  if (!posted_) {
    posted_ = true;
    leaders_.clear();
    leaders_.post_library([&](MPI_Request* r) {
      return PMPI_Iscatterv(all_, order_.counts.data(), order_.displs.data(), MPI_BYTE, recv, order_.counts[me],
                            MPI_BYTE, root_node_, ctx_.leaders_comm, r);
    });
  }
  int scattered = MPI_SUCCESS;
  if (!leaders_.test(&scattered)) return false;
  keep(scattered);
  return true;
}

// Phase 3: the leader's blocks to its node's ranks; its own block to itself.
bool ScatterAcrossNodesRounds::hand_out_step(bool, int* waiting_on) {
  if (!node_)
    node_.emplace(scatter_rounds(ctx_, config_, /*node rank*/ 0, block_, own_, own_ ? block_ : 0,
                                 scattered_ ? &*scattered_ : nullptr));
  if (!node_->advance(waiting_on)) return false;
  if (leader() && own_) copy_bytes(own_, node_blocks_, block_);
  return true;
}

int scatter_across_nodes(CommContext& ctx, const Config& config, int root, std::uint64_t block, BlockBytes* send,
                         char* own) {
  ScatterAcrossNodesRounds rounds(ctx, config, root, block, send, own, ctx.kept.get<ScatterRooms>(), true);
  return rounds.run_to_end(ctx, config);
}

}  // namespace mcorecoll
