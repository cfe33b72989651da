#include "lanes/reduce_lanes.hpp"

#include <algorithm>
#include <cstring>

#include "common/scratch_room.hpp"
#include "lanes/lanes.hpp"
#include "node/comm_context.hpp"
#include "node/transfer_count.hpp"
#include "progress/rounds_operation.hpp"
#include "reduction/reduction_checks.hpp"

namespace mcorecoll {

const char* reduction_lanes_refusal(const CommContext& ctx, Collective c, MPI_Op op, const ElementLayout& layout,
                                    bool blocking) {
  if (const char* refusal = lanes_refusal(ctx, c, blocking)) return refusal;
  if (!layout.contiguous || layout.data_begin != 0) return "lanes: a datatype with gaps";
  if (!ctx.nodes_in_rank_order && !commutative(op))
    return "lanes: across nodes whose ranks are not consecutive, with an op that is not commutative";
  return nullptr;
}

namespace {

// This rank's part of the count: its slice's elements, where they begin, the slice's room
// (none past the lanes).
Slice part_of(const CommContext& ctx, int count) {
  return slice_of(static_cast<std::uint64_t>(count), ctx.lanes, ctx.node_rank);
}

}  // namespace

// A rank whose slice is empty (fewer elements than lanes, or a node rank past the lanes) has no
// part on its lane; its lane is the same node rank on every node, so the whole lane has none.
ReduceLanesRounds::ReduceLanesRounds(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf,
                                     int count, MPI_Datatype type, MPI_Op op, int root, const ElementLayout& layout,
                                     LanesRooms& rooms, bool blocking)
    : AcrossNodesPhases(part_of(ctx, count).count > 0), ctx_(ctx), config_(config), recvbuf_(recvbuf), type_(type),
      op_(op), blocking_(blocking), reduce_(root >= 0) {
  root_node_ = root < 0 ? -1 : ctx.places[static_cast<std::size_t>(root)].node;
  gets_result_ = root < 0 || ctx.rank == root;
  node_gets_result_ = root < 0 || ctx.node_index == root_node_;
  exact_ = gets_result_ && count % ctx.lanes == 0;
  // The lanes' communicator: made by every rank of a blocking call (its first making is
  // collective); the other forms find it made (lanes_refusal()).
  lanes_ = blocking ? lanes_of(ctx) : ctx.lanes_comm;
  if (count == 0) {
    nothing_to_do();
    return;
  }
  const Slice part = part_of(ctx, count);
  mine_ = static_cast<int>(part.count);
  extent_ = layout.extent;
  image_ = layout.image_bytes(static_cast<std::size_t>(count));
  slice_ = static_cast<std::size_t>(part.per) * layout.extent;
  // Slices that fill the receive buffer exactly are put there: each rank's own reduced into its
  // place (with MPI_IN_PLACE, where those elements were, staged already), the others gathered
  // around it. Else in room, copied at the end.
  slices_ = exact_ ? static_cast<char*>(recvbuf)
                   : scratch_room(rooms.slices, slice_ * static_cast<std::size_t>(ctx.lanes));
  own_ = slices_ + slice_ * static_cast<std::size_t>(std::min(ctx.node_rank, ctx.lanes));
  // A reduce's result lands in room at the lane's root, not in place: MPICH 4.0.2's MPI_Reduce
  // in place at a root other than 0 crashes above 2 KiB.
  if (reduce_ && node_gets_result_)
    reduced_ = scratch_room(rooms.reduced, static_cast<std::size_t>(mine_) * layout.extent);
  const void* input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  node_.emplace(ctx, config, input, own_, count, type, op,
                ScatterBlock{static_cast<int>(part.first), mine_, layout}, layout);
}

std::uint64_t ReduceLanesRounds::moves() const {
  return (node_ ? node_->moves() : 0) + (gather_ ? gather_->moves() : 0) + phases_moved();
}

// 1. Slice `me` of the node's partial. Areas too small for one element are decided per node
// (each node's pool): an error, with the phases still run, so that every rank makes the same
// calls (the 128-byte elements that across_nodes_refusal() lets through fit in the smallest
// area).
bool ReduceLanesRounds::node_step(bool may_call_mpi, int* waiting_on) {
  if (!node_->advance(may_call_mpi, waiting_on)) return false;
  keep(node_->too_small() ? MPI_ERR_INTERN : node_->rc);
  return true;
}

// 2. Across the nodes on its lane (equal on the lane: one node rank, one slice); its rank in
// the lane is its node's index.
bool ReduceLanesRounds::leaders_step() {
  if (lane_.first())
    count_network_elements(MCORECOLL_NETWORK_LANE, -1, reduce_ && node_gets_result_ ? 0 : mine_, type_);
  const bool over = lane_.step(
      blocking_, &rc,
      [&] {
        return reduce_ ? PMPI_Reduce(own_, reduced_, mine_, type_, op_, root_node_, lanes_)
                       : PMPI_Allreduce(MPI_IN_PLACE, own_, mine_, type_, op_, lanes_);
      },
      [&](MPI_Request* r) {
        return reduce_ ? PMPI_Ireduce(own_, reduced_, mine_, type_, op_, root_node_, lanes_, r)
                       : PMPI_Iallreduce(MPI_IN_PLACE, own_, mine_, type_, op_, lanes_, r);
      });
  if (over) lane_done();
  return over;
}

// A reduce's slice at its lane's root: from room into its place.
void ReduceLanesRounds::lane_done() {
  if (reduced_ && rc == MPI_SUCCESS) std::memcpy(own_, reduced_, static_cast<std::size_t>(mine_) * extent_);
}

// 3. Every slice to every rank of the node, then the vector into the receive buffer.
bool ReduceLanesRounds::hand_out_step(bool, int* waiting_on) {
  if (!node_gets_result_) return true;
  if (!gather_) gather_.emplace(ctx_, config_, slices_, slice_);
  if (!gather_->advance(waiting_on)) return false;
  if (gets_result_ && !exact_) std::memcpy(recvbuf_, slices_, image_);
  return true;
}

int reduce_lanes(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf, int count,
                 MPI_Datatype type, MPI_Op op, int root, const ElementLayout& layout) {
  ReduceLanesRounds rounds(ctx, config, sendbuf, recvbuf, count, type, op, root, layout, ctx.kept.get<LanesRooms>(),
                           true);
  return rounds.run_to_end(ctx, config);
}

std::unique_ptr<Operation> make_ireduce_lanes(CommContext& ctx, const Config& config, const void* sendbuf,
                                              void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                                              const ElementLayout& layout) {
  return made_rounds<ReduceLanesRounds>(ctx, [&ctx, &config, sendbuf, recvbuf, count, type, op, root, layout,
                                              rooms = LanesRooms()](std::optional<ReduceLanesRounds>& rounds) mutable {
    rounds.emplace(ctx, config, sendbuf, recvbuf, count, type, op, root, layout, rooms, false);
  });
}

}  // namespace mcorecoll
