#include "reduction/scan_across_nodes.hpp"

#include "common/scratch_room.hpp"
#include "node/transfer_count.hpp"
#include "node/comm_context.hpp"
#include "node/wait.hpp"
#include "reduction/combine.hpp"
#include "reduction/fold.hpp"
#include "reduction/reduction_rooms.hpp"

namespace mcorecoll {

ScanAcrossNodesRounds::ScanAcrossNodesRounds(CommContext& ctx, const Config& config, bool exclusive,
                                             const void* input, void* recvbuf, int count, MPI_Datatype type,
                                             MPI_Op op, const ElementLayout& layout, ScanRooms rooms, bool blocking)
    : AcrossNodesPhases(ctx.node_rank == 0), ctx_(ctx), config_(config), exclusive_(exclusive),
      input_(static_cast<const char*>(input)), recv_(static_cast<char*>(recvbuf)), count_(count), type_(type), op_(op),
      layout_(layout), rooms_(rooms), blocking_(blocking), first_node_(ctx.node_index == 0),
      needs_mpi_(!layout.contiguous || !combine_without_mpi(type, op)),
      image_(layout.image_bytes(static_cast<std::size_t>(count))), ring_(ctx, config) {
  if (count == 0) {
    nothing_to_do();
    return;
  }
  if (leader()) total_ = scratch_room(rooms.total, image_);
  if (leader() || !first_node_) before_ = scratch_room(rooms.before, image_);
  // The first node's prefixes are their results: straight into the receive buffer.
  prefix_ = first_node_ ? recv_ : scratch_room(rooms.prefix, image_);
  // Every node's total, the last's too: the MPI library's exscan may read it, and the nodes'
  // phase 1 run at once, so it costs no time on the way to any result.
  totals_.emplace(ctx, config, input_, total_, count, type, op, /*node rank*/ 0, layout);
}

std::uint64_t ScanAcrossNodesRounds::moves() const {
  std::uint64_t moved = ring_.moves() + phases_moved();
  if (totals_) moved += totals_->moves();
  if (lines_) moved += lines_->moves();
  if (staged_) moved += staged_->moves();
  return moved;
}

// Phase 1: the node's total at its leader, then the node's scan (in place, the total first:
// the scan then overwrites the input).
bool ScanAcrossNodesRounds::node_step(bool may_call_mpi, int* waiting_on) {
  if (!lines_ && !staged_) {
    if (!totals_->advance(may_call_mpi, waiting_on)) return false;
    keep(totals_->too_small() ? MPI_ERR_INTERN : totals_->rc);  // an element fits every half (caller)
    if (scan_on_lines(layout_, count_, ctx_.node_size, config_, kScanShm))
      lines_.emplace(ctx_, exclusive_, input_, prefix_, count_, type_, op_, layout_);
    else staged_.emplace(ctx_, config_, exclusive_, input_, prefix_, count_, type_, op_, layout_);
  }
  return node_scan_step(may_call_mpi, waiting_on);
}

bool ScanAcrossNodesRounds::node_scan_step(bool may_call_mpi, int* waiting_on) {
  if (lines_) {
    if (!lines_->advance(may_call_mpi, waiting_on)) return false;
    keep(lines_->rc);
    return true;
  }
  if (!staged_->advance(may_call_mpi, waiting_on)) return false;
  keep(staged_->too_small() ? MPI_ERR_INTERN : staged_->rc);
  return true;
}

// Phase 2, at node leaders: B_k, the exscan of the node totals in node order (the leaders'
// communicator ranks the leaders as their nodes lie in rank order).
bool ScanAcrossNodesRounds::leaders_step() {
  if (blocking_ || !posted_)  // the last node's total comes before no node
    count_network_elements(MCORECOLL_NETWORK_EXSCAN, -1, ctx_.node_index == ctx_.node_count - 1 ? 0 : count_, type_);
  if (blocking_) {
    keep(PMPI_Exscan(total_, before_, count_, type_, op_, ctx_.leaders_comm));
    return true;
  }
  if (!posted_) {
    posted_ = true;
    leaders_.clear();
    leaders_.post_library(
        [&](MPI_Request* r) { return PMPI_Iexscan(total_, before_, count_, type_, op_, ctx_.leaders_comm, r); });
  }
  int exchanged = MPI_SUCCESS;
  if (!leaders_.test(&exchanged)) return false;
  keep(exchanged);
  return true;
}

// Phase 3, on every node but the first: B_k to the node, folded in from the left.
bool ScanAcrossNodesRounds::hand_out_step(bool may_call_mpi, int* waiting_on) {
  if (first_node_) return true;
  if (!handed_) {
    if (!ring_.step(before_, image_, 0, waiting_on)) return false;
    handed_ = true;
  }
  if (needs_mpi_ && !may_call_mpi) return false;
  const char* result = before_;
  if (!exclusive_ || ctx_.node_rank > 0) {  // an exscan's node rank 0 has no node prefix
    keep(combine(before_, prefix_, count_, type_, op_));
    result = prefix_;
  }
  keep(deliver(result, recv_, count_, layout_, type_, ctx_.comm, rooms_.packed));
  return true;
}

int scan_across_nodes(CommContext& ctx, const Config& config, bool exclusive, const void* input, void* recvbuf,
                      int count, MPI_Datatype type, MPI_Op op, const ElementLayout& layout) {
  if (count == 0) return MPI_SUCCESS;
  ReductionRooms& kept = reduction_rooms(ctx);
  ScanAcrossNodesRounds rounds(ctx, config, exclusive, input, recvbuf, count, type, op, layout,
                               {kept.node_partial, kept.nodes_gathered, kept.scan_result, kept.packed}, true);
  return rounds.run_to_end(ctx, config);
}

}  // namespace mcorecoll
