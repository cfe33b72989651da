#include "reduction/reduce_shm.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "node/call_areas.hpp"
#include "node/line_tree.hpp"
#include "node/node_shm.hpp"
#include "node/wait.hpp"
#include "reduction/fold.hpp"
#include "node/record_lines.hpp"
#include "node/comm_context.hpp"
#include "node/transfer_count.hpp"
#include "reduction/reduction_rooms.hpp"

namespace mcorecoll {
namespace {

// The communicator's scratch for the image of k elements (kept from call to call).
char* scratch_for(CommContext& ctx, const ElementLayout& layout, int k) {
  return scratch_room(reduction_rooms(ctx).running, layout.image_bytes(static_cast<std::size_t>(k)));
}

// Node rank waited for, or -1 once every rank has reached `seq` on `flag_of(r)`.
template <typename Flag>
int first_behind(int ranks, std::uint64_t seq, Flag flag_of) {
  for (int r = 0; r < ranks; ++r)
    if (!reached(flag_of(r).load(std::memory_order_acquire), seq)) return r;
  return -1;
}

// Node rank r's image in `round` from byte `from` on, of which the caller reads `bytes`; `flag`
// (r's post or reduced word) reached the round's sequence number. Counted as a read
// (node/transfer_count.hpp).
const char* staged_image(CommContext& ctx, const Round& round, const std::atomic<std::uint64_t>& flag, int r,
                         std::size_t from, std::size_t bytes) {
  count_read(ctx, flag, round.seq, r, bytes);
  return round.staged_by(r) + from;
}

}  // namespace

bool lease_reduction_rounds(CommContext& ctx, const Config& config, const ElementLayout& layout, int count,
                            StagingAreas* staging, int* per_round, int* waiting_on) {
  // Two halves, each of a round's image per rank: the whole image spread over the peers.
  const std::size_t image = layout.image_bytes(static_cast<std::size_t>(count));
  const std::size_t n = static_cast<std::size_t>(ctx.node_size);
  if (!try_reduce_staging_areas(ctx, config, (image + n - 1) / n, staging)) {
    *waiting_on = ctx.channel.lease_waits_for;
    return false;
  }
  // Every rank holds the same areas (the lease protocol), so all agree on this.
  const std::size_t half = staging->area / 2;
  *per_round = half < layout.extent
                   ? 0
                   : static_cast<int>(std::min<std::size_t>(half / layout.extent, static_cast<std::size_t>(count)));
  return true;
}

ReduceRounds::ReduceRounds(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf, int count,
                           MPI_Datatype type, MPI_Op op, int root, const ElementLayout& layout, int algorithm)
    : ctx_(ctx), config_(config),
      mine_(static_cast<const char*>(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf)),
      recv_(static_cast<char*>(recvbuf)), count_(count), type_(type), op_(op), root_(root), layout_(layout),
      gets_result_(root < 0 || root == ctx.node_rank),  // one node: node ranks are the ranks
      needs_mpi_(!layout.contiguous || !combine_without_mpi(type, op)),
      // A contiguous result is folded straight into the receive buffer (its staged copy is
      // taken before); otherwise in scratch, then delivered data byte by data byte.
      fold_in_place_(layout.contiguous && layout.data_begin == 0),
      algorithm_(node_algorithm_taken(Collective::allreduce, algorithm,
                                      layout.image_bytes(static_cast<std::size_t>(count)), ctx.node_size, config)) {}

ReduceRounds::ReduceRounds(CommContext& ctx, const Config& config, const void* input, void* recvbuf, int count,
                           MPI_Datatype type, MPI_Op op, const ScatterBlock& block, const ElementLayout& layout)
    : ReduceRounds(ctx, config, input, recvbuf, count, type, op, -1, layout) {
  block_ = block;
  algorithm_ = kReductionFold;  // each rank folds its block (fold_block())
}

bool ReduceRounds::advance(bool may_call_mpi, int* waiting_on) {
  if (count_ == 0) return true;
  if (algorithm_ == kReductionTree) return tree_line_step(may_call_mpi, waiting_on);
  if (algorithm_ == kReductionLines) return line_step(may_call_mpi, waiting_on);
  if (stage_ == Stage::lease) {
    if (!lease_reduction_rounds(ctx_, config_, layout_, count_, &staging_, &per_round_, waiting_on)) return false;
    if (per_round_ == 0) {
      too_small_ = true;
      return true;
    }
    stage_ = Stage::stage;
  }
  while (first_ < count_) {
    switch (stage_) {
      case Stage::lease:
      case Stage::stage:
      case Stage::result:  // the small reductions' tree only
        if (!stage_round()) {
          *waiting_on = rank_using_half(ctx_, *ctx_.channel.shm, round_);
          return false;
        }
        break;
      case Stage::fold:
        if (!fold_round(may_call_mpi, waiting_on)) return false;
        break;
      case Stage::slices_out:
        if (!gather_slices(may_call_mpi, waiting_on)) return false;
        break;
    }
  }
  return true;
}

// A small reduction (node/record_lines.hpp): post, then fold every rank's record.
bool ReduceRounds::line_step(bool may_call_mpi, int* waiting_on) {
  const int n = ctx_.node_size;
  if (stage_ == Stage::lease) {
    if (!record_ready(ctx_, line_, waiting_on)) return false;
    post_line(ctx_, line_, mine_, layout_.image_bytes(static_cast<std::size_t>(count_)));
    stage_ = Stage::fold;
  }
  if (!gets_result_) return true;
  for (int r = 0; r < n; ++r)
    if (!line_posted(ctx_, r, line_)) {
      *waiting_on = r;
      return false;
    }
  if (needs_mpi_ && !may_call_mpi) return false;
  char* acc = fold_in_place_ ? recv_ : scratch_for(ctx_, layout_, count_);
  int folded = fold(n, count_, layout_, type_, op_, acc, [&](int r) { return line_data(ctx_, r, line_); });
  if (folded == MPI_SUCCESS && !fold_in_place_)
    folded = deliver(acc, recv_, count_, layout_, type_, ctx_.comm, reduction_rooms(ctx_).packed);
  rc = folded;
  return true;
}

// A small reduction over the tree of consecutive node ranks. At level k (span s = radix^k),
// node rank r with r % (s x radix) == 0 folds its partial (ranks [r, r + s)) with those of
// r + j s, j = 1 .. radix - 1 (where below n), each covering s ranks, in rank order:
// p_r op (p_{r+s} op (... op p_{r+(radix-1)s})). A rank posts its partial on its line at the
// level where it stops leading, once; node rank 0's is the result, which the other ranks of an
// allreduce, or the root of a reduce, read. The bracketing follows from n and the radix alone:
// every rank gets the same bits, in every run (doc/design/reductions.md). Each rank posts every
// call exactly once and reads a call's lines before it posts the next: record_lines.hpp's reuse
// rule holds.
bool ReduceRounds::tree_line_step(bool may_call_mpi, int* waiting_on) {
  const int n = ctx_.node_size, me = ctx_.node_rank, radix = config_.reduce_tree_radix;
  const std::size_t bytes = layout_.image_bytes(static_cast<std::size_t>(count_));
  if (stage_ == Stage::lease) {
    if (!record_ready(ctx_, line_, waiting_on)) return false;
    partial_ = mine_;
    stage_ = Stage::fold;
  }
  if (stage_ == Stage::fold) {
    const LineTree tree{n, radix};
    for (; tree.leads(me, span_); span_ *= radix) {
      const int parts = tree.parts(me, span_);
      for (int j = 1; j < parts; ++j)
        if (!line_posted(ctx_, me + j * span_, line_)) {
          *waiting_on = me + j * span_;
          return false;
        }
      if (parts == 1) continue;
      if (needs_mpi_ && !may_call_mpi) return false;
      std::vector<char>& room = reduction_rooms(ctx_).tree[room_];
      room_ ^= 1;
      char* folded = scratch_room(room, bytes);
      const int rc_fold = fold(parts, count_, layout_, type_, op_, folded,
                               [&](int j) { return j == 0 ? partial_ : line_data(ctx_, me + j * span_, line_); });
      if (rc == MPI_SUCCESS) rc = rc_fold;
      partial_ = folded;
      ++moves_;
    }
    post_line(ctx_, line_, partial_, bytes);
    ++moves_;
    stage_ = Stage::result;
  }
  if (!gets_result_) return true;
  const char* result = partial_;
  if (me != 0) {
    if (!line_posted(ctx_, 0, line_)) {
      *waiting_on = 0;
      return false;
    }
    result = line_data(ctx_, 0, line_);
  }
  if (needs_mpi_ && !may_call_mpi) return false;
  if (fold_in_place_) {
    if (result != recv_) std::memcpy(recv_, result, bytes);
  } else {
    const int delivered = deliver(result, recv_, count_, layout_, type_, ctx_.comm, reduction_rooms(ctx_).packed);
    if (rc == MPI_SUCCESS) rc = delivered;
  }
  return true;
}

// The round's image of this rank's contribution, at the same offsets as in its buffer, once
// the half is free (every rank done with the round that last used it).
bool ReduceRounds::stage_round() {
  NodeShm& shm = *ctx_.channel.shm;
  if (!have_round_) {
    k_ = std::min(per_round_, count_ - first_);
    round_ = next_round(ctx_, staging_, layout_.image_bytes(static_cast<std::size_t>(k_)));
    have_round_ = true;
  }
  if (rank_using_half(ctx_, shm, round_) >= 0) return false;
  std::memcpy(const_cast<char*>(round_.staged_by(ctx_.node_rank)), mine_ + static_cast<std::size_t>(first_) * layout_.extent,
              layout_.image_bytes(static_cast<std::size_t>(k_)));
  shm.post(ctx_.node_rank).store(round_.seq, std::memory_order_release);
  count_post(ctx_, shm.post(ctx_.node_rank), round_.seq);
  stage_ = Stage::fold;
  ++moves_;
  return true;
}

bool ReduceRounds::fold_round(bool may_call_mpi, int* waiting_on) {
  if (block_) return fold_block(may_call_mpi, waiting_on);
  NodeShm& shm = *ctx_.channel.shm;
  const int n = ctx_.node_size, me = ctx_.node_rank;
  const bool slices = algorithm_ == kReductionSlices;
  if (!slices && !gets_result_) {
    end_round();
    return true;
  }
  const int behind = first_behind(n, round_.seq, [&](int r) -> std::atomic<std::uint64_t>& { return shm.post(r); });
  if (behind >= 0) {
    *waiting_on = behind;
    return false;
  }
  if (needs_mpi_ && !may_call_mpi) return false;
  const std::size_t at = static_cast<std::size_t>(first_) * layout_.extent;
  if (!slices) {
    char* acc = fold_in_place_ ? recv_ + at : scratch_for(ctx_, layout_, k_);
    const std::size_t image = layout_.image_bytes(static_cast<std::size_t>(k_));
    int folded = fold(n, k_, layout_, type_, op_, acc,
                      [&](int r) { return staged_image(ctx_, round_, shm.post(r), r, 0, image); });
    if (folded == MPI_SUCCESS && !fold_in_place_)
      folded = deliver(acc, recv_ + at, k_, layout_, type_, ctx_.comm, reduction_rooms(ctx_).packed);
    if (rc == MPI_SUCCESS) rc = folded;
    end_round();
    return true;
  }
  // Slice s: elements [k * s / n, k * (s + 1) / n) of the round. Only this rank reads slice
  // `me` of the staged images, so its result goes there (folded in scratch first).
  const int a = static_cast<int>(static_cast<long long>(k_) * me / n);
  const int b = static_cast<int>(static_cast<long long>(k_) * (me + 1) / n);
  if (b > a) {
    char* acc = scratch_for(ctx_, layout_, b - a);
    const std::size_t from = static_cast<std::size_t>(a) * layout_.extent;
    const std::size_t slice = layout_.image_bytes(static_cast<std::size_t>(b - a));
    const int folded = fold(n, b - a, layout_, type_, op_, acc,
                            [&](int r) { return staged_image(ctx_, round_, shm.post(r), r, from, slice); });
    if (rc == MPI_SUCCESS) rc = folded;
    std::memcpy(const_cast<char*>(round_.staged_by(me)) + static_cast<std::size_t>(a) * layout_.extent, acc, slice);
  }
  shm.reduced(me).store(round_.seq, std::memory_order_release);
  count_post(ctx_, shm.reduced(me), round_.seq);
  ++moves_;
  if (!gets_result_) {
    end_round();
    return true;
  }
  slice_next_ = 0;
  stage_ = Stage::slices_out;
  return true;
}

// A reduce-scatter's round: the part of this rank's block that lies in the round, [a, b) of its
// elements, folded from every rank's image in rank order and delivered at once. With
// MPI_IN_PLACE the receive buffer is the input: block element i goes where vector element i
// was, and i <= first + i, which lies in this round or an earlier one, staged already.
bool ReduceRounds::fold_block(bool may_call_mpi, int* waiting_on) {
  NodeShm& shm = *ctx_.channel.shm;
  const int n = ctx_.node_size;
  const int a = std::clamp(block_->first - first_, 0, k_);
  const int b = std::clamp(block_->first + block_->count - first_, 0, k_);
  if (b > a) {
    const int behind = first_behind(n, round_.seq, [&](int r) -> std::atomic<std::uint64_t>& { return shm.post(r); });
    if (behind >= 0) {
      *waiting_on = behind;
      return false;
    }
    if (needs_mpi_ && !may_call_mpi) return false;
    char* acc = scratch_for(ctx_, layout_, b - a);
    const std::size_t from = static_cast<std::size_t>(a) * layout_.extent;
    const std::size_t part = layout_.image_bytes(static_cast<std::size_t>(b - a));
    int folded = fold(n, b - a, layout_, type_, op_, acc,
                      [&](int r) { return staged_image(ctx_, round_, shm.post(r), r, from, part); });
    char* to = recv_ + static_cast<std::size_t>(first_ + a - block_->first) * layout_.extent;
    if (folded == MPI_SUCCESS)
      folded = deliver(acc, to, b - a, block_->layout, type_, ctx_.comm, reduction_rooms(ctx_).packed);
    if (rc == MPI_SUCCESS) rc = folded;
  }
  end_round();
  return true;
}

// Every slice's result into the receive buffer, staggered like every read of the node.
bool ReduceRounds::gather_slices(bool may_call_mpi, int* waiting_on) {
  NodeShm& shm = *ctx_.channel.shm;
  const int n = ctx_.node_size, me = ctx_.node_rank;
  if (!layout_.contiguous && !may_call_mpi) return false;
  for (; slice_next_ < n; ++slice_next_) {
    const int s = (me + slice_next_) % n;
    const int sa = static_cast<int>(static_cast<long long>(k_) * s / n);
    const int sb = static_cast<int>(static_cast<long long>(k_) * (s + 1) / n);
    if (sb == sa) continue;
    if (!reached(shm.reduced(s).load(std::memory_order_acquire), round_.seq)) {
      *waiting_on = s;
      return false;
    }
    const std::size_t from = static_cast<std::size_t>(first_ + sa) * layout_.extent;
    const std::size_t in_round = static_cast<std::size_t>(sa) * layout_.extent;
    const std::size_t bytes = layout_.image_bytes(static_cast<std::size_t>(sb - sa));
    const char* slice = staged_image(ctx_, round_, shm.reduced(s), s, in_round, bytes);
    const int delivered =
        deliver(slice, recv_ + from, sb - sa, layout_, type_, ctx_.comm, reduction_rooms(ctx_).packed);
    if (rc == MPI_SUCCESS) rc = delivered;
  }
  end_round();
  return true;
}

void ReduceRounds::end_round() {
  ++moves_;
  ctx_.channel.shm->done(ctx_.node_rank).store(round_.seq, std::memory_order_release);
  ctx_.channel.last_stage_seq[round_.h] = round_.seq;
  first_ += k_;
  have_round_ = false;
  stage_ = Stage::stage;
}

void run_to_end(ReduceRounds& rounds, CommContext& ctx, const Config& config) {
  Waiter waiter = Waiter::for_context(ctx, config);
  int waiting_on = -1;
  run_rounds(waiter, [&] { return rounds.advance(true, &waiting_on); }, [&] { return rounds.moves(); });
}

int reduce_shm(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf, int count,
               MPI_Datatype type, MPI_Op op, int root, const ElementLayout& layout, int algorithm) {
  ReduceRounds rounds(ctx, config, sendbuf, recvbuf, count, type, op, root, layout, algorithm);
  run_to_end(rounds, ctx, config);
  if (rounds.too_small())  // a fallback staging area too small for one element: every rank alike
    return root < 0 ? PMPI_Allreduce(sendbuf, recvbuf, count, type, op, ctx.comm)
                    : PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, ctx.comm);
  return rounds.rc;
}

}  // namespace mcorecoll
