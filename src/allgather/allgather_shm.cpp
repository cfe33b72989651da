#include "allgather/allgather_shm.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

#include "allgather/allgather_bytes.hpp"
#include "decisions/config.hpp"
#include "node/call_areas.hpp"
#include "node/node_shm.hpp"
#include "node/wait.hpp"
#include "node/comm_context.hpp"
#include "node/transfer_count.hpp"

namespace mcorecoll {

AllgatherRounds::AllgatherRounds(CommContext& ctx, const Config& config, const char* out, char* recv,
                                 std::uint64_t block, int algorithm)
    : ctx_(ctx), config_(config), out_(out), recv_(recv), block_(block),
      algorithm_(node_algorithm_taken(Collective::allgather, algorithm, block, ctx.node_size, config)),
      groups_(algorithm_ == kAllgatherGroups ? LineGroups::of(ctx.node_size, block, kReduceLineBytes)
                                             : LineGroups{ctx.node_size, 1}) {}

bool AllgatherRounds::line_step(int* waiting_on) {
  const int n = ctx_.node_size;
  if (!posted_) {
    if (!record_ready(ctx_, line_, waiting_on)) return false;
    post_line(ctx_, line_, out_, block_);
    posted_ = true;
    read_.assign(static_cast<std::size_t>(n), 0);
  }
  // Every line in turn from this rank's next one on; a line not posted yet ends the step.
  for (int i = 0; i < n; ++i) {
    const int r = (ctx_.node_rank + i) % n;
    if (read_[static_cast<std::size_t>(r)]) continue;
    if (!line_posted(ctx_, r, line_)) {
      *waiting_on = r;
      return false;
    }
    std::memcpy(recv_ + static_cast<std::uint64_t>(r) * block_, line_data(ctx_, r, line_), block_);
    read_[static_cast<std::size_t>(r)] = 1;
  }
  return true;
}

// Two line calls, numbered alike on every rank: in the first every rank posts its block; a
// group's leader reads its members' and posts the group's blocks (consecutive in `recv`) in the
// second, where the others post nothing: a record is written again only once every rank has
// posted a later call (node/record_lines.hpp), and each posts the second only after it has read
// what it reads of the first. Then every rank reads each group's line, its own leader's too.
bool AllgatherRounds::group_step(int* waiting_on) {
  const int me = ctx_.node_rank, lead = groups_.leader(me);
  const std::uint64_t block = block_;
  if (stage_ == 0) {
    if (!record_ready(ctx_, line_, waiting_on)) return false;
    post_line(ctx_, line_, out_, block);
    stage_ = lead == me ? 1 : 2;
    next_ = me + 1;
  }
  if (stage_ == 1) {
    for (; next_ < me + groups_.members(me); ++next_) {
      if (!line_posted(ctx_, next_, line_)) return *waiting_on = next_, false;
      std::memcpy(recv_ + static_cast<std::uint64_t>(next_) * block, line_data(ctx_, next_, line_), block);
      ++moves_;
    }
    std::memmove(recv_ + static_cast<std::uint64_t>(me) * block, out_, block);  // in place: the same bytes
    stage_ = 2;
  }
  if (stage_ == 2) {
    if (!record_ready(ctx_, group_line_, waiting_on)) return false;
    const std::uint64_t group_bytes = lead == me ? static_cast<std::uint64_t>(groups_.members(me)) * block : 0;
    post_line(ctx_, group_line_, recv_ + static_cast<std::uint64_t>(me) * block, group_bytes);
    stage_ = 3;
    next_ = 1;  // groups after this rank's, in turn: readers spread over the leaders' lines
  }
  const int groups = groups_.count(), mine = me / groups_.size;
  for (; next_ <= groups; ++next_) {
    const int g = (mine + next_) % groups;
    if (g == mine && lead == me) continue;  // its group's blocks are in already
    const int leader = g * groups_.size;
    if (!line_posted(ctx_, leader, group_line_)) return *waiting_on = leader, false;
    std::memcpy(recv_ + static_cast<std::uint64_t>(leader) * block, line_data(ctx_, leader, group_line_),
                static_cast<std::uint64_t>(groups_.members(leader)) * block);
    ++moves_;
  }
  return true;
}

bool AllgatherRounds::advance(int* waiting_on) {
  if (block_ == 0) return true;
  if (algorithm_ == kAllgatherGroups) return group_step(waiting_on);
  if (algorithm_ == kAllgatherLines) return line_step(waiting_on);
  NodeShm& shm = *ctx_.channel.shm;
  const int n = ctx_.node_size, me = ctx_.node_rank;
  if (!begun_) {
    if (!try_node_staging_areas(ctx_, config_, block_, &staging_)) {
      *waiting_on = ctx_.channel.lease_waits_for;
      return false;
    }
    tile_ = std::max<std::uint64_t>(staging_.area / 2, 1);
    begun_ = true;
  }
  while (offset_ < block_) {
    if (!round_) {
      round_ = next_round(ctx_, staging_, std::min(tile_, block_ - offset_));
      reads_.reset();
    }
    if (!reads_) {
      const int busy = rank_using_half(ctx_, shm, *round_);
      if (busy >= 0) {
        *waiting_on = busy;
        return false;
      }
      std::memcpy(const_cast<char*>(round_->staged_by(me)), out_ + offset_, round_->len);
      shm.post(me).store(round_->seq, std::memory_order_release);
      count_post(ctx_, shm.post(me), round_->seq);
      reads_.emplace(me, n, round_->seq, config_.alltoall_readers);
      ++moves_;
    }
    const std::uint64_t offset = offset_;
    const Round& round = *round_;
    if (!reads_->advance(shm, [&](int r) {
          count_read(ctx_, shm.post(r), round.seq, r, round.len);
          std::memcpy(recv_ + static_cast<std::uint64_t>(r) * block_ + offset, round.staged_by(r), round.len);
          ++moves_;
        })) {
      *waiting_on = reads_->next();
      return false;
    }
    shm.done(me).store(round_->seq, std::memory_order_release);
    ctx_.channel.last_stage_seq[round_->h] = round_->seq;
    offset_ += round_->len;
    round_.reset();
  }
  return true;
}

int allgather_shm(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount,
                  MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                  std::uint64_t block, int algorithm) {
  if (block == 0) return MPI_SUCCESS;
  AllgatherBytes sides(ctx, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, block);
  sides.pack();
  AllgatherRounds rounds(ctx, config, sides.out(), sides.recv.data(), block, algorithm);
  Waiter waiter = Waiter::for_context(ctx, config);
  int waiting_on = -1;
  run_rounds(waiter, [&] { return rounds.advance(&waiting_on); }, [&] { return rounds.moves(); });
  sides.recv.unpack();
  return MPI_SUCCESS;
}

}  // namespace mcorecoll
