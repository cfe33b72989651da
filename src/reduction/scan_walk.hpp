// One round of the scans' tree for this rank (node/line_tree.hpp's PrefixBlocks; the algorithm
// and its bracketing: scan_shm.hpp), written once for both carriers of the blocks: the ranks'
// record lines (scan_lines.hpp) and the halves of the staging areas (scan_shm.hpp). A carrier
// says whether node rank r's block of the round is posted (`posted(r, waiting_on)`), where it
// is (`block(r)`), whether this rank may write its own yet (`may_post(waiting_on)`), where it
// builds it (`own()`) and posts it (`post()`).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "node/comm_context.hpp"
#include "node/line_tree.hpp"
#include "reduction/combine.hpp"
#include "reduction/fold.hpp"
#include "reduction/reduction_rooms.hpp"

namespace mcorecoll {

class ScanWalk {
 public:
  ScanWalk(CommContext& ctx, bool exclusive, MPI_Datatype type, MPI_Op op, const ElementLayout& layout)
      : ctx_(ctx), exclusive_(exclusive), type_(type), op_(op), layout_(layout),
        needs_mpi_(!layout.contiguous || !combine_without_mpi(type, op)) {}

  // A round of k elements: this rank's contribution at `input` (read when it posts: with
  // MPI_IN_PLACE it is the receive buffer), its result to `recv`; `parts` and `prefix`: scratch
  // for the image of k elements each.
  void begin(const char* input, char* recv, int k, char* parts, char* prefix) {
    input_ = input, recv_ = recv, k_ = k, parts_ = parts, prefix_ = prefix;
    bytes_ = layout_.image_bytes(static_cast<std::size_t>(k));
    stage_ = Stage::parts;
    next_ = 1;
    have_prefix_ = false;
  }

  // True once the round's result is delivered; else *waiting_on names the rank waited for, or
  // it stopped before an MPI call (`may_call_mpi` false).
  template <typename Carrier>
  bool advance(Carrier& carrier, bool may_call_mpi, int* waiting_on) {
    const int me = ctx_.node_rank;  // one node: node ranks are the ranks
    const int size = PrefixBlocks::block_size(me);
    if (stage_ == Stage::parts) {
      // The blocks before this rank's own contribution, nearest first (made soonest), each
      // folded in from the left: rank order, and an exscan's result is these with what comes
      // before them.
      for (; next_ < size; next_ *= 2) {
        if (!carrier.posted(me - next_, waiting_on)) return false;
        if (needs_mpi_ && !may_call_mpi) return false;
        fold_in(carrier.block(me - next_), parts_, next_ == 1);
        ++moves_;
      }
      stage_ = Stage::post;
    }
    if (stage_ == Stage::post) {
      if (!carrier.may_post(waiting_on)) return false;
      if (size > 1 && needs_mpi_ && !may_call_mpi) return false;
      char* own = carrier.own();
      std::memcpy(own, input_, bytes_);
      if (size > 1) fold_in(parts_, own, false);
      carrier.post();
      ++moves_;
      have_prefix_ = !exclusive_ || size > 1;
      if (have_prefix_) std::memcpy(prefix_, exclusive_ ? parts_ : own, bytes_);
      next_ = PrefixBlocks::before(me);
      stage_ = Stage::prefix;
    }
    if (stage_ == Stage::prefix) {
      for (; next_ >= 0; next_ = PrefixBlocks::before(next_)) {
        if (!carrier.posted(next_, waiting_on)) return false;
        if (needs_mpi_ && !may_call_mpi) return false;
        fold_in(carrier.block(next_), prefix_, !have_prefix_);
        have_prefix_ = true;
        ++moves_;
      }
      stage_ = Stage::deliver;
    }
    if (stage_ == Stage::deliver) {
      if (have_prefix_) {  // exscan's rank 0 has no result
        if (needs_mpi_ && !may_call_mpi) return false;
        const int delivered = deliver(prefix_, recv_, k_, layout_, type_, ctx_.comm, reduction_rooms(ctx_).packed);
        if (rc == MPI_SUCCESS) rc = delivered;
      }
      stage_ = Stage::done;
    }
    return true;
  }

  std::uint64_t moves() const { return moves_; }
  int rc = MPI_SUCCESS;

 private:
  enum class Stage { parts, post, prefix, deliver, done };
  // Folds a block into `acc` from the left (it comes before what acc holds), or copies it where
  // acc holds nothing yet.
  void fold_in(const char* block, char* acc, bool first) {
    if (first) {
      std::memcpy(acc, block, bytes_);
      return;
    }
    const int folded = combine(block, acc, k_, type_, op_);
    if (rc == MPI_SUCCESS) rc = folded;
  }

  CommContext& ctx_;
  const bool exclusive_;
  MPI_Datatype type_;
  MPI_Op op_;
  ElementLayout layout_;
  bool needs_mpi_;
  const char* input_ = nullptr;
  char* recv_ = nullptr;
  int k_ = 0;
  std::size_t bytes_ = 0;
  char* parts_ = nullptr;   // the blocks before this rank's, in its block
  char* prefix_ = nullptr;  // the result so far
  Stage stage_ = Stage::done;
  int next_ = 0;  // parts: the distance of the next block; prefix: the next block's rank
  bool have_prefix_ = false;
  std::uint64_t moves_ = 0;
};

}  // namespace mcorecoll
