#include "reduction/scan_shm.hpp"

#include <algorithm>

#include "node/call_areas.hpp"
#include "node/comm_context.hpp"
#include "node/node_shm.hpp"
#include "node/transfer_count.hpp"
#include "node/wait.hpp"
#include "reduction/reduce_shm.hpp"
#include "reduction/reduction_rooms.hpp"
#include "reduction/scan_lines.hpp"

namespace mcorecoll {

ScanRounds::ScanRounds(CommContext& ctx, const Config& config, bool exclusive, const void* input, void* recvbuf,
                       int count, MPI_Datatype type, MPI_Op op, const ElementLayout& layout)
    : ctx_(ctx), config_(config), input_(static_cast<const char*>(input)), recv_(static_cast<char*>(recvbuf)),
      count_(count), layout_(layout), walk_(ctx, exclusive, type, op, layout) {}

bool ScanRounds::Halves::posted(int r, int* waiting_on) const {
  if (reached(rounds.ctx_.channel.shm->post(r).load(std::memory_order_acquire), rounds.round_.seq)) return true;
  *waiting_on = r;
  return false;
}

const char* ScanRounds::Halves::block(int r) const {
  count_read(rounds.ctx_, rounds.ctx_.channel.shm->post(r), rounds.round_.seq, r, rounds.round_.len);
  return rounds.round_.staged_by(r);
}

bool ScanRounds::Halves::may_post(int* waiting_on) const {
  const int behind = rank_using_half(rounds.ctx_, *rounds.ctx_.channel.shm, rounds.round_);
  if (behind < 0) return true;
  *waiting_on = behind;
  return false;
}

char* ScanRounds::Halves::own() const {
  return const_cast<char*>(rounds.round_.staged_by(rounds.ctx_.node_rank));
}

void ScanRounds::Halves::post() const {
  std::atomic<std::uint64_t>& flag = rounds.ctx_.channel.shm->post(rounds.ctx_.node_rank);
  flag.store(rounds.round_.seq, std::memory_order_release);
  count_post(rounds.ctx_, flag, rounds.round_.seq);
}

bool ScanRounds::advance(bool may_call_mpi, int* waiting_on) {
  if (count_ == 0) return true;
  if (per_round_ == 0) {
    if (!lease_reduction_rounds(ctx_, config_, layout_, count_, &staging_, &per_round_, waiting_on)) return false;
    if (per_round_ == 0) {
      too_small_ = true;
      return true;
    }
  }
  while (first_ < count_) {
    if (!in_round_) {
      k_ = std::min(per_round_, count_ - first_);
      const std::size_t room = layout_.image_bytes(static_cast<std::size_t>(k_));
      round_ = next_round(ctx_, staging_, room);
      const std::size_t at = static_cast<std::size_t>(first_) * layout_.extent;
      // recv_ null: an exscan's rank 0, whose receive buffer is not significant.
      walk_.begin(input_ + at, recv_ ? recv_ + at : nullptr, k_, scratch_room(reduction_rooms(ctx_).scan_parts, room),
                  scratch_room(reduction_rooms(ctx_).scan_prefix, room));
      in_round_ = true;
    }
    Halves halves{*this};
    if (!walk_.advance(halves, may_call_mpi, waiting_on)) return false;
    if (rc == MPI_SUCCESS) rc = walk_.rc;
    end_round();
  }
  return true;
}

// Done with the round: no block of it is read by this rank any more.
void ScanRounds::end_round() {
  ++rounds_done_;
  ctx_.channel.shm->done(ctx_.node_rank).store(round_.seq, std::memory_order_release);
  ctx_.channel.last_stage_seq[round_.h] = round_.seq;
  first_ += k_;
  in_round_ = false;
}

int scan_shm(CommContext& ctx, const Config& config, bool exclusive, const void* input, void* recvbuf, int count,
             MPI_Datatype type, MPI_Op op, const ElementLayout& layout, int algorithm) {
  Waiter waiter = Waiter::for_context(ctx, config);
  int waiting_on = -1;
  auto run = [&](auto& rounds) {
    run_rounds(waiter, [&] { return rounds.advance(true, &waiting_on); }, [&] { return rounds.moves(); });
  };
  if (scan_on_lines(layout, count, ctx.node_size, config, algorithm)) {
    ScanLineRounds rounds(ctx, exclusive, input, recvbuf, count, type, op, layout);
    run(rounds);
    return rounds.rc;
  }
  ScanRounds rounds(ctx, config, exclusive, input, recvbuf, count, type, op, layout);
  run(rounds);
  if (rounds.too_small())  // a fallback staging area too small for one element: every rank alike
    return exclusive ? PMPI_Exscan(input == recvbuf ? MPI_IN_PLACE : input, recvbuf, count, type, op, ctx.comm)
                     : PMPI_Scan(input == recvbuf ? MPI_IN_PLACE : input, recvbuf, count, type, op, ctx.comm);
  return rounds.rc;
}

}  // namespace mcorecoll
