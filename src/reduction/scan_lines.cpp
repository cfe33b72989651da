#include "reduction/scan_lines.hpp"

namespace mcorecoll {

ScanLineRounds::ScanLineRounds(CommContext& ctx, bool exclusive, const void* input, void* recvbuf, int count,
                               MPI_Datatype type, MPI_Op op, const ElementLayout& layout)
    : ctx_(ctx), input_(static_cast<const char*>(input)), recv_(static_cast<char*>(recvbuf)), count_(count),
      bytes_(layout.image_bytes(static_cast<std::size_t>(count))), walk_(ctx, exclusive, type, op, layout) {}

bool ScanLineRounds::Lines::posted(int r, int* waiting_on) const {
  if (line_posted(rounds.ctx_, r, rounds.line_)) return true;
  *waiting_on = r;
  return false;
}

const char* ScanLineRounds::Lines::block(int r) const { return line_data(rounds.ctx_, r, rounds.line_); }

// Posted by every rank, read or not: the record-reuse rule counts on every rank's post.
void ScanLineRounds::Lines::post() const { post_line(rounds.ctx_, rounds.line_, rounds.block_, rounds.bytes_); }

bool ScanLineRounds::advance(bool may_call_mpi, int* waiting_on) {
  if (count_ == 0) return true;
  if (!claimed_) {
    if (!record_ready(ctx_, line_, waiting_on)) return false;
    walk_.begin(input_, recv_, count_, parts_, prefix_);
    claimed_ = true;
  }
  Lines lines{*this};
  if (!walk_.advance(lines, may_call_mpi, waiting_on)) return false;
  rc = walk_.rc;
  return true;
}

}  // namespace mcorecoll
