// A blocking exchange of blocks of bytes inside one node: the pattern under the collectives
// whose blocks differ in size or go to one rank (gather, scatter, their v-forms, allgatherv,
// alltoallv). Each round, every node rank that gives writes a tile of its blocks into its
// staging area (one tile that all its readers share, or one tile per destination node rank),
// posts it, and every rank copies its part out of the areas of the ranks it takes from, then
// says it is done; the halves of the areas alternate as in the alltoall (alltoall/alltoall_shm.hpp),
// so a rank stages round k + 1 while slower ranks still read round k. Blocks small enough for
// a line go through the ranks' reduction records instead (node/record_lines.hpp: no lease, no
// "done" handshake).
//
// Every node rank calls it in the same call with the same shape: the number of rounds and the
// areas' size follow from `max_block`, which must be equal on every rank (the callers know it
// from the standard's rules or learn it first, from the header line below).
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "node/staged_rounds.hpp"
#include "node/call_areas.hpp"
#include "node/node_shm.hpp"
#include "node/wait.hpp"
#include "node/record_lines.hpp"
#include "node/comm_context.hpp"
#include "node/transfer_count.hpp"

namespace mcorecoll {

struct Config;

struct ExchangeShape {
  bool per_destination = false;  // a tile for each destination node rank, else one for all readers
  std::uint64_t max_block = 0;   // the largest block any rank gives, equal on every rank (0: nothing moves)
  bool gives = false;            // whether this rank gives anything
  std::vector<int> sources;      // the node ranks this rank takes from (not itself)
};

// `give(tiles, offset, len)`: this rank's bytes [offset, offset + len) of each block it gives,
// clipped to the block's size, into `tiles` (tile d at tiles + d x len when per destination).
// `take(r, tiles, offset, len)`: this rank's part of node rank r's tiles of the same bytes.
// Both may be called with offsets past a block's end: they then copy nothing.
template <typename Give, typename Take>
void staged_exchange(CommContext& ctx, const Config& config, const ExchangeShape& shape, Give give, Take take);

// The v-forms' first step (alltoallv, gatherv, scatterv: no rank knows every block's size, or
// only the root does). One line call in which every rank posts a header (its largest block, or
// kNotOurs where its arguments are the MPI library's to judge) and, where they fit, its tiles of
// the call; the ranks that need to read the headers they decide from (every rank's for
// alltoallv, the root's for the rooted ones: it knows every size). A call whose blocks all fit
// the line is then done by reading the records; a larger one goes on through
// staged_exchange() or to PMPI, decided from the same headers on every rank.
constexpr std::uint64_t kNotOurs = ~0ull;
constexpr std::size_t kHeaderLineData = kReduceLineBytes - 8;

class HeaderLine {
 public:
  HeaderLine(CommContext& ctx, Waiter& waiter) : ctx_(ctx), waiter_(waiter), call_(next_line_call(ctx)) {}
  // Posts this rank's header and, with `gives`, its tiles: give(tiles, 0, len).
  template <typename Give>
  void post(std::uint64_t header, bool gives, std::uint64_t len, Give give) {
    unsigned polls = 0;
    while (line_reader_behind(ctx_, call_) >= 0) waiter_.backoff(polls);
    char* record = ctx_.channel.shm->reduce_record(ctx_.node_rank, call_.line);
    std::memcpy(record, &header, sizeof header);
    if (gives) give(record + 8, 0, len);
    publish_line(ctx_, call_);
  }
  // Node rank r's header, once r has posted (waits).
  std::uint64_t header(int r) {
    for (unsigned polls = 0; !line_posted(ctx_, r, call_);) waiter_.backoff(polls);
    std::uint64_t h;
    std::memcpy(&h, line_data(ctx_, r, call_), sizeof h);
    return h;
  }
  // Node rank r's tiles (after header(r)).
  const char* data(int r) { return line_data(ctx_, r, call_) + 8; }

 private:
  CommContext& ctx_;
  Waiter& waiter_;
  LineCall call_;
};

// The exchange as resumable steps: advance() does what it can without waiting and says
// whether this rank's part is over (*waiting_on: the node rank it waits for). The blocking
// staged_exchange() loops on it; the non-blocking and persistent forms take one advance() per
// step of the progress engine (exchange_operation.hpp). Steps call no MPI function.
class ExchangeRounds {
 public:
  using Give = std::function<void(char* tiles, std::uint64_t offset, std::uint64_t len)>;
  using Take = std::function<void(int r, const char* tiles, std::uint64_t offset, std::uint64_t len)>;
  ExchangeRounds(CommContext& ctx, const Config& config, ExchangeShape shape, Give give, Take take)
      : ctx_(ctx), config_(config), shape_(std::move(shape)), give_(std::move(give)), take_(std::move(take)) {
    const std::uint64_t tiles = shape_.per_destination ? static_cast<std::uint64_t>(ctx.node_size) : 1;
    lines_ = tiles * shape_.max_block <= kReduceLineBytes;
    start_ = first_visit(shape_.sources, ctx.node_rank);
  }
  bool advance(int* waiting_on) {
    if (shape_.max_block == 0) return true;
    return lines_ ? line_step(waiting_on) : round_steps(waiting_on);
  }
  // Counts the tiles moved so far: a waiting loop starts its backing off again after progress.
  std::uint64_t moves() const { return moves_; }

 private:
  // The first source after this rank: in step no two readers start at the same rank.
  static std::size_t first_visit(const std::vector<int>& sources, int me) {
    for (std::size_t i = 0; i < sources.size(); ++i)
      if (sources[i] > me) return i;
    return 0;
  }
  int source(std::size_t i) const { return shape_.sources[(start_ + i) % shape_.sources.size()]; }

  bool line_step(int* waiting_on) {
    if (!posted_) {
      if (!record_ready(ctx_, line_, waiting_on)) return false;
      // Every rank posts, giver or not: a record is written again only once every rank has
      // posted a later call (node/record_lines.hpp).
      if (shape_.gives) give_(ctx_.channel.shm->reduce_record(ctx_.node_rank, line_.line), 0, shape_.max_block);
      publish_line(ctx_, line_);
      posted_ = true;
    }
    for (; next_ < shape_.sources.size(); ++next_) {
      const int r = source(next_);
      if (!line_posted(ctx_, r, line_)) return *waiting_on = r, false;
      take_(r, line_data(ctx_, r, line_), 0, shape_.max_block);
      ++moves_;
    }
    return true;
  }

  bool round_steps(int* waiting_on) {
    NodeShm& shm = *ctx_.channel.shm;
    const int n = ctx_.node_size, me = ctx_.node_rank;
    if (!leased_) {
      // The lease gives each rank 2 x n x (asked) bytes: per destination a whole block per
      // tile, else the whole block in each half.
      const std::uint64_t asked = shape_.per_destination ? shape_.max_block : (shape_.max_block + n - 1) / n;
      if (!try_node_staging_areas(ctx_, config_, asked, &staging_)) return *waiting_on = ctx_.channel.lease_waits_for, false;
      tile_ = shape_.per_destination ? tile_bytes(staging_, n) : std::max<std::uint64_t>(staging_.area / 2, 1);
      leased_ = true;
    }
    while (offset_ < shape_.max_block) {
      if (!round_) {
        round_ = next_round(ctx_, staging_, std::min(tile_, shape_.max_block - offset_));
        posted_ = !shape_.gives;
        next_ = 0;
      }
      const Round& round = *round_;
      if (!posted_) {
        const int busy = rank_using_half(ctx_, shm, round);
        if (busy >= 0) return *waiting_on = busy, false;
        give_(const_cast<char*>(round.staged_by(me)), offset_, round.len);
        shm.post(me).store(round.seq, std::memory_order_release);
        count_post(ctx_, shm.post(me), round.seq);
        posted_ = true;
        ++moves_;
      }
      for (; next_ < shape_.sources.size(); ++next_) {
        const int r = source(next_);
        if (!reached(shm.post(r).load(std::memory_order_acquire), round.seq)) return *waiting_on = r, false;
        count_read(ctx_, shm.post(r), round.seq, r, round.len);  // a tile: this rank's, or the one for all
        take_(r, round.staged_by(r), offset_, round.len);
        ++moves_;
      }
      shm.done(me).store(round.seq, std::memory_order_release);
      ctx_.channel.last_stage_seq[round.h] = round.seq;
      offset_ += round.len;
      round_.reset();
    }
    return true;
  }

  CommContext& ctx_;
  const Config& config_;
  ExchangeShape shape_;
  Give give_;
  Take take_;
  bool lines_ = false, posted_ = false, leased_ = false;
  std::size_t start_ = 0, next_ = 0;
  LineCall line_{};
  StagingAreas staging_{};
  std::uint64_t tile_ = 0, offset_ = 0, moves_ = 0;
  std::optional<Round> round_;
};

// The rounds to the end, waiting politely between steps (the blocking forms).
inline void run_to_end(ExchangeRounds& rounds, const CommContext& ctx, const Config& config) {
  Waiter waiter = Waiter::for_context(ctx, config);
  int waiting_on = -1;
  run_rounds(waiter, [&] { return rounds.advance(&waiting_on); }, [&] { return rounds.moves(); });
}

template <typename Give, typename Take>
void staged_exchange(CommContext& ctx, const Config& config, const ExchangeShape& shape, Give give, Take take) {
  if (shape.max_block == 0) return;
  ExchangeRounds rounds(ctx, config, shape, give, take);
  run_to_end(rounds, ctx, config);
}

// memcpy that copies nothing for nothing (a zero-sized block's pointer may be null).
inline void copy_bytes(void* to, const void* from, std::uint64_t n) {
  if (n) std::memcpy(to, from, n);
}

// The part of a block's bytes [offset, offset + len) that lies inside a block of `size`:
// how many bytes to copy from `offset` (0 past its end).
inline std::uint64_t clipped(std::uint64_t size, std::uint64_t offset, std::uint64_t len) {
  return offset >= size ? 0 : std::min(len, size - offset);
}

// One node rank's `bytes` at `data` to another's `data` (each rank passes its own buffer: the
// giver's is read, the taker's written, the others' untouched): the exchange with one tile and
// one reader, every node rank taking part. The gather and scatter across nodes hand every block
// of the call between the root and its node's leader this way.
inline ExchangeRounds hand_over_rounds(CommContext& ctx, const Config& config, int from, int to, char* data,
                                       std::uint64_t bytes) {
  ExchangeShape shape;
  shape.max_block = bytes;
  shape.gives = ctx.node_rank == from;
  if (ctx.node_rank == to) shape.sources.push_back(from);
  return ExchangeRounds(
      ctx, config, std::move(shape),
      [data, bytes](char* tiles, std::uint64_t offset, std::uint64_t len) {
        copy_bytes(tiles, data + offset, clipped(bytes, offset, len));
      },
      [data, bytes](int, const char* tiles, std::uint64_t offset, std::uint64_t len) {
        copy_bytes(data + offset, tiles, clipped(bytes, offset, len));
      });
}

}  // namespace mcorecoll
