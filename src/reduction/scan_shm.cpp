#include "reduction/scan_shm.hpp"

#include <algorithm>
#include <cstring>

#include "node/call_areas.hpp"
#include "node/comm_context.hpp"
#include "node/line_tree.hpp"
#include "node/node_shm.hpp"
#include "node/transfer_count.hpp"
#include "node/wait.hpp"
#include "reduction/combine.hpp"
#include "reduction/fold.hpp"
#include "reduction/reduction_rooms.hpp"
#include "reduction/scan_lines.hpp"

namespace mcorecoll {

ScanRounds::ScanRounds(CommContext& ctx, const Config& config, bool exclusive, const void* input, void* recvbuf,
                       int count, MPI_Datatype type, MPI_Op op, const ElementLayout& layout)
    : ctx_(ctx), config_(config), exclusive_(exclusive), input_(static_cast<const char*>(input)),
      recv_(static_cast<char*>(recvbuf)), count_(count), type_(type), op_(op), layout_(layout),
      needs_mpi_(!layout.contiguous || !combine_without_mpi(type, op)) {}

// Whether node rank r has posted its block of this round.
bool ScanRounds::posted(int r, int* waiting_on) const {
  if (reached(ctx_.channel.shm->post(r).load(std::memory_order_acquire), round_.seq)) return true;
  *waiting_on = r;
  return false;
}

// Folds a block of k elements into `acc` from the left (it comes before what acc holds), or
// copies it where acc holds nothing yet.
void ScanRounds::fold_in(const char* block, char* acc, int k, bool first) {
  if (first) {
    std::memcpy(acc, block, layout_.image_bytes(static_cast<std::size_t>(k)));
    return;
  }
  const int folded = combine(block, acc, k, type_, op_);
  if (rc == MPI_SUCCESS) rc = folded;
}

bool ScanRounds::advance(bool may_call_mpi, int* waiting_on) {
  if (count_ == 0) return true;
  const int n = ctx_.node_size, me = ctx_.node_rank;  // one node: node ranks are the ranks
  const int size = PrefixBlocks::block_size(me);
  if (stage_ == Stage::lease) {
    // Two halves, each of a round's image per rank: the whole image spread over the peers.
    const std::size_t image = layout_.image_bytes(static_cast<std::size_t>(count_));
    if (!try_reduce_staging_areas(ctx_, config_, (image + n - 1) / static_cast<std::size_t>(n), &staging_)) {
      *waiting_on = ctx_.channel.lease_waits_for;
      return false;
    }
    // Every rank holds the same areas (the lease protocol), so all agree on this.
    const std::size_t half = staging_.area / 2;
    if (half < layout_.data_end) {
      too_small_ = true;
      return true;
    }
    per_round_ = static_cast<int>(std::min<std::size_t>((half - layout_.data_end) / layout_.extent + 1,
                                                        static_cast<std::size_t>(count_)));
    const std::size_t room = layout_.image_bytes(static_cast<std::size_t>(per_round_));
    parts_ = scratch_room(reduction_rooms(ctx_).scan_parts, room);
    prefix_ = scratch_room(reduction_rooms(ctx_).scan_prefix, room);
    stage_ = Stage::start;
  }
  while (first_ < count_) {
    const std::size_t at = static_cast<std::size_t>(first_) * layout_.extent;
    if (stage_ == Stage::start) {
      k_ = std::min(per_round_, count_ - first_);
      round_ = next_round(ctx_, staging_, layout_.image_bytes(static_cast<std::size_t>(k_)));
      next_ = 1;
      stage_ = Stage::parts;
    }
    if (stage_ == Stage::parts) {
      // The blocks before this rank's own contribution, nearest first (made soonest).
      for (; next_ < size; next_ *= 2) {
        if (!posted(me - next_, waiting_on)) return false;
        if (needs_mpi_ && !may_call_mpi) return false;
        count_read(ctx_, ctx_.channel.shm->post(me - next_), round_.seq, me - next_, round_.len);
        fold_in(round_.staged_by(me - next_), parts_, k_, next_ == 1);
        ++moves_;
      }
      stage_ = Stage::post;
    }
    if (stage_ == Stage::post) {
      const int behind = rank_using_half(ctx_, *ctx_.channel.shm, round_);
      if (behind >= 0) {
        *waiting_on = behind;
        return false;
      }
      if (size > 1 && needs_mpi_ && !may_call_mpi) return false;
      // The block in this rank's own half: its contribution (taken now: with MPI_IN_PLACE the
      // receive buffer is the input), the parts folded in from the left.
      char* block = const_cast<char*>(round_.staged_by(me));
      std::memcpy(block, input_ + at, round_.len);
      if (size > 1) fold_in(parts_, block, k_, false);
      ctx_.channel.shm->post(me).store(round_.seq, std::memory_order_release);
      count_post(ctx_, ctx_.channel.shm->post(me), round_.seq);
      ++moves_;
      have_prefix_ = !exclusive_ || size > 1;
      if (have_prefix_) std::memcpy(prefix_, exclusive_ ? parts_ : block, round_.len);
      next_ = PrefixBlocks::before(me);
      stage_ = Stage::prefix;
    }
    if (stage_ == Stage::prefix) {
      for (; next_ >= 0; next_ = PrefixBlocks::before(next_)) {
        if (!posted(next_, waiting_on)) return false;
        if (needs_mpi_ && !may_call_mpi) return false;
        count_read(ctx_, ctx_.channel.shm->post(next_), round_.seq, next_, round_.len);
        fold_in(round_.staged_by(next_), prefix_, k_, !have_prefix_);
        have_prefix_ = true;
        ++moves_;
      }
      stage_ = Stage::deliver;
    }
    // Stage::deliver: exscan's rank 0 has no result.
    if (have_prefix_) {
      if (needs_mpi_ && !may_call_mpi) return false;
      const int delivered = deliver(prefix_, recv_ + at, k_, layout_, type_, ctx_.comm, reduction_rooms(ctx_).packed);
      if (rc == MPI_SUCCESS) rc = delivered;
    }
    end_round();
  }
  return true;
}

// Done with the round: no block of it is read by this rank any more.
void ScanRounds::end_round() {
  ++moves_;
  ctx_.channel.shm->done(ctx_.node_rank).store(round_.seq, std::memory_order_release);
  ctx_.channel.last_stage_seq[round_.h] = round_.seq;
  first_ += k_;
  have_prefix_ = false;
  stage_ = Stage::start;
}

int scan_shm(CommContext& ctx, const Config& config, bool exclusive, const void* input, void* recvbuf, int count,
             MPI_Datatype type, MPI_Op op, const ElementLayout& layout) {
  Waiter waiter = Waiter::for_context(ctx, config);
  int waiting_on = -1;
  if (scan_on_lines(layout, count)) {
    ScanLineRounds rounds(ctx, exclusive, input, recvbuf, count, type, op, layout);
    run_rounds(waiter, [&] { return rounds.advance(true, &waiting_on); }, [&] { return rounds.moves(); });
    return rounds.rc;
  }
  ScanRounds rounds(ctx, config, exclusive, input, recvbuf, count, type, op, layout);
  run_rounds(waiter, [&] { return rounds.advance(true, &waiting_on); }, [&] { return rounds.moves(); });
  if (rounds.too_small())  // a fallback staging area too small for one element: every rank alike
    return exclusive ? PMPI_Exscan(input == recvbuf ? MPI_IN_PLACE : input, recvbuf, count, type, op, ctx.comm)
                     : PMPI_Scan(input == recvbuf ? MPI_IN_PLACE : input, recvbuf, count, type, op, ctx.comm);
  return rounds.rc;
}

}  // namespace mcorecoll
