#include "reduction/scan_lines.hpp"

#include <cstring>

#include "node/comm_context.hpp"
#include "node/line_tree.hpp"
#include "reduction/combine.hpp"
#include "reduction/fold.hpp"
#include "reduction/reduction_rooms.hpp"

namespace mcorecoll {

ScanLineRounds::ScanLineRounds(CommContext& ctx, bool exclusive, const void* input, void* recvbuf, int count,
                               MPI_Datatype type, MPI_Op op, const ElementLayout& layout)
    : ctx_(ctx), exclusive_(exclusive), input_(static_cast<const char*>(input)), recv_(static_cast<char*>(recvbuf)),
      count_(count), type_(type), op_(op), layout_(layout),
      bytes_(layout.image_bytes(static_cast<std::size_t>(count))),
      needs_mpi_(!layout.contiguous || !combine_without_mpi(type, op)) {}

void ScanLineRounds::fold_in(int r, char* acc, bool first) {
  const char* part = line_data(ctx_, r, line_);
  if (first) {
    std::memcpy(acc, part, bytes_);
    return;
  }
  const int folded = combine(part, acc, count_, type_, op_);
  if (rc == MPI_SUCCESS) rc = folded;
}

bool ScanLineRounds::advance(bool may_call_mpi, int* waiting_on) {
  if (count_ == 0) return true;
  const int me = ctx_.node_rank;  // one node: node ranks are the ranks
  const int size = PrefixBlocks::block_size(me);
  if (stage_ == Stage::claim) {
    if (!record_ready(ctx_, line_, waiting_on)) return false;
    // Taken now: with MPI_IN_PLACE the receive buffer is the input.
    std::memcpy(block_, input_, bytes_);
    next_ = 1;
    stage_ = Stage::block;
  }
  if (stage_ == Stage::block) {
    // The blocks before this rank's own contribution, nearest first (made soonest), each folded
    // in from the left: rank order, and an exscan's result is these with what comes before.
    for (; next_ < size; next_ *= 2) {
      if (!line_posted(ctx_, me - next_, line_)) {
        *waiting_on = me - next_;
        return false;
      }
      if (needs_mpi_ && !may_call_mpi) return false;
      fold_in(me - next_, parts_, next_ == 1);
      ++moves_;
    }
    if (size > 1) {
      if (needs_mpi_ && !may_call_mpi) return false;
      const int folded = combine(parts_, block_, count_, type_, op_);
      if (rc == MPI_SUCCESS) rc = folded;
    }
    // Posted by every rank, read or not: the record-reuse rule counts on every rank's post.
    post_line(ctx_, line_, block_, bytes_);
    ++moves_;
    have_prefix_ = !exclusive_ || size > 1;
    if (have_prefix_) std::memcpy(prefix_, exclusive_ ? parts_ : block_, bytes_);
    next_ = PrefixBlocks::before(me);
    stage_ = Stage::prefix;
  }
  if (stage_ == Stage::prefix) {
    for (; next_ >= 0; next_ = PrefixBlocks::before(next_)) {
      if (!line_posted(ctx_, next_, line_)) {
        *waiting_on = next_;
        return false;
      }
      if (needs_mpi_ && !may_call_mpi) return false;
      fold_in(next_, prefix_, !have_prefix_);
      have_prefix_ = true;
      ++moves_;
    }
    stage_ = Stage::done;
  }
  if (!have_prefix_) return true;  // exscan's rank 0: no result
  if (needs_mpi_ && !may_call_mpi) return false;
  const int delivered = deliver(prefix_, recv_, count_, layout_, type_, ctx_.comm, reduction_rooms(ctx_).packed);
  if (rc == MPI_SUCCESS) rc = delivered;
  have_prefix_ = false;  // delivered once
  return true;
}

}  // namespace mcorecoll
