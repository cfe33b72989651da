#include "gather/gather_across_nodes.hpp"

#include <algorithm>

#include "common/scratch_room.hpp"
#include "gather/gather_shm.hpp"
#include "node/transfer_count.hpp"
#include "node/comm_context.hpp"
#include "node/wait.hpp"

namespace mcorecoll {

GatherAcrossNodesRounds::GatherAcrossNodesRounds(CommContext& ctx, const Config& config, int root,
                                                 std::uint64_t block, const char* own, BlockBytes* recv,
                                                 bool in_place, GatherRooms& rooms, bool blocking)
    : AcrossNodesPhases(ctx.node_rank == 0), ctx_(ctx), config_(config), root_(root),
      root_node_(ctx.places[static_cast<std::size_t>(root)].node),
      root_local_(ctx.places[static_cast<std::size_t>(root)].node_rank), block_(block),
      total_(static_cast<std::uint64_t>(ctx.size) * block), recv_(recv), in_place_(in_place), blocking_(blocking),
      order_(ctx, block) {
  if (block == 0) {
    nothing_to_do();
    return;
  }
  const bool root_node = ctx.node_index == root_node_;
  if (root_node && (leader() || ctx.rank == root)) all_ = scratch_room(rooms.all, total_);
  if (leader()) {
    node_blocks_ = root_node ? all_ + order_.displs[static_cast<std::size_t>(root_node_)]
                             : scratch_room(rooms.node, static_cast<std::size_t>(ctx.node_size) * block);
    copy_bytes(node_blocks_, own, block);
    gathered_.emplace(node_blocks_, ctx.node_size, static_cast<int>(block), MPI_BYTE);
  }
  node_.emplace(gather_rounds(ctx, config, /*node rank*/ 0, block, own, block, gathered_ ? &*gathered_ : nullptr));
  hands_ = root_node && root_local_ != 0;
}

std::uint64_t GatherAcrossNodesRounds::moves() const {
  return (node_ ? node_->moves() : 0) + (hand_ ? hand_->moves() : 0) + phases_moved();
}

// Phase 2: node k's blocks, one message, to the root's node's leader (in place there).
bool GatherAcrossNodesRounds::leaders_step() {
  const std::size_t me = static_cast<std::size_t>(ctx_.node_index);
  const void* send = static_cast<int>(me) == root_node_ ? MPI_IN_PLACE : node_blocks_;
  if (blocking_ || !posted_)
    count_network(MCORECOLL_NETWORK_GATHERV, -1, send == MPI_IN_PLACE ? 0 : static_cast<std::uint64_t>(order_.counts[me]));
  if (blocking_) {
    keep(PMPI_Gatherv(send, order_.counts[me], MPI_BYTE, all_, order_.counts.data(), order_.displs.data(), MPI_BYTE,
                      root_node_, ctx_.leaders_comm));
    place();
    return true;
  }
  if (!posted_) {
    posted_ = true;
    leaders_.clear();
    leaders_.post_library([&](MPI_Request* r) {
      return PMPI_Igatherv(send, order_.counts[me], MPI_BYTE, all_, order_.counts.data(), order_.displs.data(),
                           MPI_BYTE, root_node_, ctx_.leaders_comm, r);
    });
  }
  int gathered = MPI_SUCCESS;
  if (!leaders_.test(&gathered)) return false;
  keep(gathered);
  place();
  return true;
}

// Phase 3, on the root's node: every block to the root, where the root is not its leader.
bool GatherAcrossNodesRounds::hand_out_step(bool, int* waiting_on) {
  if (!hands_) return true;
  if (!hand_)  // made when phase 3 begins (it claims its line or areas at its first step)
    hand_.emplace(hand_over_rounds(ctx_, config_, /*from*/ 0, /*to*/ root_local_, all_, total_));
  if (!hand_->advance(waiting_on)) return false;
  place();
  return true;
}

// The root: every block from node order to its place by rank (bytes; the caller unpacks).
void GatherAcrossNodesRounds::place() {
  if (ctx_.rank != root_) return;
  for (int r = 0; r < ctx_.size; ++r) {
    if (in_place_ && r == root_) continue;
    copy_bytes(recv_->data(r), all_ + static_cast<std::uint64_t>(order_.at(ctx_, r)) * block_,
               std::min(block_, recv_->size(r)));
  }
}

int gather_across_nodes(CommContext& ctx, const Config& config, int root, std::uint64_t block, const char* own,
                        BlockBytes* recv, bool in_place) {
  GatherAcrossNodesRounds rounds(ctx, config, root, block, own, recv, in_place, ctx.kept.get<GatherRooms>(), true);
  rounds.run_to_end(ctx, config);
  if (recv) recv->unpack_all_but(in_place ? root : -1);
  return rounds.rc;
}

}  // namespace mcorecoll
