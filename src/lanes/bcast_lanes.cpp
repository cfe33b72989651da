#include "lanes/bcast_lanes.hpp"

#include <algorithm>
#include <cstring>

#include "common/message_bytes.hpp"
#include "common/scratch_room.hpp"
#include "lanes/lanes.hpp"
#include "node/comm_context.hpp"
#include "node/transfer_count.hpp"
#include "progress/rounds_operation.hpp"

namespace mcorecoll {

// A rank of an empty slice (fewer bytes than lanes, or a node rank past the lanes) has no part
// on its lane; its lane is the same node rank on every node, so the whole lane has none.
BcastLanesRounds::BcastLanesRounds(CommContext& ctx, const Config& config, char* message, std::uint64_t bytes,
                                   int root, BcastLanesRooms& rooms, bool blocking)
    : AcrossNodesPhases(slice_of(bytes, ctx.lanes, ctx.node_rank).count > 0), ctx_(ctx), config_(config),
      message_(message), bytes_(bytes), root_(root), root_node_(ctx.places[static_cast<std::size_t>(root)].node),
      root_local_(ctx.places[static_cast<std::size_t>(root)].node_rank), blocking_(blocking),
      lanes_(blocking ? lanes_of(ctx) : ctx.lanes_comm), ring_(ctx, config) {
  const int n = ctx.lanes;  // none past the lanes
  const Slice part = slice_of(bytes, n, ctx.node_rank);
  per_ = part.per, mine_ = part.count;
  // The slices, padded to n equal ones: the message's own bytes where they fill them exactly.
  exact_ = per_ * static_cast<std::uint64_t>(n) == bytes;
  all_ = exact_ ? message : scratch_room(rooms.slices, per_ * static_cast<std::uint64_t>(n));
  if (!exact_ && ctx.rank == root) std::memcpy(all_, message, bytes);
  own_ = all_ + per_ * static_cast<std::uint64_t>(std::min(ctx.node_rank, n));
}

std::uint64_t BcastLanesRounds::moves() const {
  return ring_.moves() + (gather_ ? gather_->moves() : 0) + phases_moved();
}

// 1. The whole message to the root's node.
bool BcastLanesRounds::node_step(bool, int* waiting_on) {
  if (ctx_.node_index != root_node_ || ctx_.node_size == 1) return true;
  return ring_.step(all_, bytes_, root_local_, waiting_on);
}

// 2. Each slice from the root's node on its lane (its rank there: the node's index).
bool BcastLanesRounds::leaders_step() {
  const int count = static_cast<int>(mine_);
  if (lane_.first()) count_network(MCORECOLL_NETWORK_LANE, -1, ctx_.node_index == root_node_ ? mine_ : 0);
  return lane_.step(
      blocking_, &rc, [&] { return PMPI_Bcast(own_, count, MPI_BYTE, root_node_, lanes_); },
      [&](MPI_Request* r) { return PMPI_Ibcast(own_, count, MPI_BYTE, root_node_, lanes_, r); });
}

// 3. Every slice to every rank of the other nodes; then the message's bytes in place.
bool BcastLanesRounds::hand_out_step(bool, int* waiting_on) {
  if (ctx_.node_index != root_node_ && ctx_.node_size > 1) {
    if (!gather_) gather_.emplace(ctx_, config_, all_, per_);
    if (!gather_->advance(waiting_on)) return false;
  }
  if (ctx_.rank != root_ && !exact_) std::memcpy(message_, all_, bytes_);
  return true;
}

int bcast_lanes(CommContext& ctx, const Config& config, void* buffer, int count, MPI_Datatype type, int root,
                std::uint64_t bytes) {
  if (bytes == 0) return MPI_SUCCESS;
  MessageBytes message(buffer, count, type, bytes);
  if (ctx.rank == root) message.pack();
  BcastLanesRounds rounds(ctx, config, message.data(), bytes, root, ctx.kept.get<BcastLanesRooms>(), true);
  const int rc = rounds.run_to_end(ctx, config);
  if (ctx.rank != root) message.unpack();
  return rc;
}

namespace {

class IbcastLanes final : public RoundsOperation<BcastLanesRounds> {
 public:
  IbcastLanes(CommContext& ctx, const Config& config, void* buffer, int count, MPI_Datatype type, int root,
              std::uint64_t bytes)
      : RoundsOperation(ctx), config_(config), root_(root), bytes_(bytes), message_(buffer, count, type, bytes) {
    message_.hold_type();
  }

  void begin() override {
    rc = MPI_SUCCESS;
    if (bytes_ == 0) return;
    if (ctx_.rank == root_) message_.pack();
    rounds_.emplace(ctx_, config_, message_.data(), bytes_, root_, rooms_, false);
  }
  bool step(bool may_call_mpi) override { return bytes_ == 0 || RoundsOperation::step(may_call_mpi); }
  void finish() override {
    if (bytes_ > 0 && ctx_.rank != root_) message_.unpack();
  }

 private:
  const Config& config_;
  int root_;
  std::uint64_t bytes_;
  MessageBytes message_;
  BcastLanesRooms rooms_;
};

}  // namespace

std::unique_ptr<Operation> make_ibcast_lanes(CommContext& ctx, const Config& config, void* buffer, int count,
                                             MPI_Datatype type, int root, std::uint64_t bytes) {
  return std::make_unique<IbcastLanes>(ctx, config, buffer, count, type, root, bytes);
}

}  // namespace mcorecoll
