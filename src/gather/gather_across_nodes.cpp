#include "gather/gather_across_nodes.hpp"

#include <algorithm>

#include "common/scratch_room.hpp"
#include "gather/gather_shm.hpp"
#include "node/comm_context.hpp"
#include "node/node_order.hpp"
#include "node/transfer_count.hpp"
#include "node/wait.hpp"

namespace mcorecoll {

GatherAcrossNodesRounds::GatherAcrossNodesRounds(CommContext& ctx, const Config& config, int root,
                                                 const RootedSizes& sizes, const char* own, std::uint64_t own_size,
                                                 BlockBytes* recv, const char* mine, std::uint64_t mine_size,
                                                 GatherRooms& rooms, bool blocking)
    : AcrossNodesPhases(ctx.node_rank == 0), ctx_(ctx), config_(config), root_(root),
      root_node_(ctx.places[static_cast<std::size_t>(root)].node),
      root_local_(ctx.places[static_cast<std::size_t>(root)].node_rank), sizes_(sizes), recv_(recv),
      blocking_(blocking) {
  if (ctx.rank == root && mine) copy_bytes(recv->data(root), mine, std::min(mine_size, recv->size(root)));
  // Every rank knows the whole's bytes: where only the root's own block has any, nothing moves.
  if (sizes.total == 0) {
    nothing_to_do();
    return;
  }
  const bool root_node = ctx.node_index == root_node_;
  if (root_node && (leader() || ctx.rank == root)) all_ = scratch_room(rooms.all, sizes.total);
  if (leader()) {
    const std::size_t me = static_cast<std::size_t>(ctx.node_index);
    node_blocks_ = root_node ? all_ + sizes.displs[me] : scratch_room(rooms.node, std::max(sizes.totals[me], 1));
    sizes.node_layout(&counts_, &displs_);
    gathered_.emplace(node_blocks_, ctx.node_size, counts_.data(), displs_.data(), MPI_BYTE);
    if (own) copy_bytes(node_blocks_, own, std::min(own_size, sizes.node_blocks[0]));
  }
  static const char kNothing = 0;  // what a rank that gives nothing (the root) stages
  node_.emplace(gather_rounds(ctx, config, /*node rank*/ 0, sizes.largest, own ? own : &kNothing, own ? own_size : 0,
                              gathered_ ? &*gathered_ : nullptr));
  hands_ = root_node && root_local_ != 0;
}

std::uint64_t GatherAcrossNodesRounds::moves() const {
  return (node_ ? node_->moves() : 0) + (hand_ ? hand_->moves() : 0) + phases_moved();
}

// Phase 2: node k's blocks, one message, to the root's node's leader (in place there).
bool GatherAcrossNodesRounds::leaders_step() {
  const std::size_t me = static_cast<std::size_t>(ctx_.node_index);
  const void* send = static_cast<int>(me) == root_node_ ? MPI_IN_PLACE : node_blocks_;
  const int* counts = sizes_.totals.data();
  const int* displs = sizes_.displs.data();
  if (blocking_ || !posted_)
    count_network(MCORECOLL_NETWORK_GATHERV, -1, send == MPI_IN_PLACE ? 0 : static_cast<std::uint64_t>(counts[me]));
  if (blocking_) {
    keep(PMPI_Gatherv(send, counts[me], MPI_BYTE, all_, counts, displs, MPI_BYTE, root_node_, ctx_.leaders_comm));
    place();
    return true;
  }
  if (!posted_) {
    posted_ = true;
    leaders_.clear();
    leaders_.post_library([&](MPI_Request* r) {
      return PMPI_Igatherv(send, counts[me], MPI_BYTE, all_, counts, displs, MPI_BYTE, root_node_, ctx_.leaders_comm,
                           r);
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
    hand_.emplace(hand_over_rounds(ctx_, config_, /*from*/ 0, /*to*/ root_local_, all_, sizes_.total));
  if (!hand_->advance(waiting_on)) return false;
  place();
  return true;
}

// The root: every block but its own from node order to its place by rank (bytes; the caller
// unpacks). (Blocks past the whole: a program whose ranks disagree with the root on their
// sizes, which the MPI library would not judge alike either; nothing is read past what arrived.)
void GatherAcrossNodesRounds::place() {
  if (ctx_.rank != root_) return;
  std::vector<std::uint64_t> blocks = recv_->sizes();
  blocks[static_cast<std::size_t>(root_)] = 0;
  const NodeOrderBytes order(ctx_, blocks);
  for (int r = 0; r < ctx_.size; ++r) {
    const std::size_t i = static_cast<std::size_t>(r);
    if (r != root_ && order.at[i] + blocks[i] <= sizes_.total)
      copy_bytes(recv_->data(r), all_ + order.at[i], blocks[i]);
  }
}

int gather_across_nodes(CommContext& ctx, const Config& config, int root, const RootedSizes& sizes, const char* own,
                        std::uint64_t own_size, BlockBytes* recv, const char* mine, std::uint64_t mine_size) {
  GatherAcrossNodesRounds rounds(ctx, config, root, sizes, own, own_size, recv, mine, mine_size,
                                 ctx.kept.get<GatherRooms>(), true);
  rounds.run_to_end(ctx, config);
  if (recv) recv->unpack_all_but(mine ? -1 : root);
  return rounds.rc;
}

}  // namespace mcorecoll
