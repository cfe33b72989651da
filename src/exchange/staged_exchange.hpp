// A blocking exchange of blocks of bytes inside one node: the pattern under the collectives
// whose blocks differ in size or go to one rank (gather, scatter, their v-forms, allgatherv,
// alltoallv). Each round, every node rank that gives writes a tile of its blocks into its
// staging area (one tile that all its readers share, or one tile per destination node rank),
// posts it, and every rank copies its part out of the areas of the ranks it takes from, then
// says it is done; the halves of the areas alternate as in the alltoall (alltoall_rounds.hpp),
// so a rank stages round k + 1 while slower ranks still read round k. Blocks small enough for
// a line go through the ranks' reduction records instead (reduce_lines.hpp: no lease, no
// "done" handshake).
//
// Every node rank calls it in the same call with the same shape: the number of rounds and the
// areas' size follow from `max_block`, which must be equal on every rank (the callers know it
// from the standard's rules or learn it first, from the header line below).
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "alltoall/alltoall_rounds.hpp"
#include "node/call_areas.hpp"
#include "node/node_shm.hpp"
#include "node/wait.hpp"
#include "reduction/reduce_lines.hpp"
#include "topology/comm_context.hpp"

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
    char* record = ctx_.shm->reduce_record(ctx_.node_rank, call_.line);
    std::memcpy(record, &header, sizeof header);
    if (gives) give(record + 8, 0, len);
    ctx_.shm->reduce_record_seq(ctx_.node_rank, call_.line).store(call_.seq, std::memory_order_release);
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

// Implementation.

namespace exchange_detail {

// The starting point of this rank's visits: the first source after it, so that in step no
// two readers start at the same rank.
inline std::size_t first_visit(const std::vector<int>& sources, int me) {
  for (std::size_t i = 0; i < sources.size(); ++i)
    if (sources[i] > me) return i;
  return 0;
}

template <typename Give, typename Take>
void through_lines(CommContext& ctx, const ExchangeShape& shape, Waiter& waiter, Give give, Take take) {
  const LineCall call = next_line_call(ctx);
  unsigned polls = 0;
  while (line_reader_behind(ctx, call) >= 0) waiter.backoff(polls);
  const std::uint64_t len = shape.max_block;
  // Every rank posts, giver or not: a record is written again only once every rank has
  // posted a later call (reduce_lines.hpp).
  char* record = ctx.shm->reduce_record(ctx.node_rank, call.line);
  if (shape.gives) give(record, 0, len);
  ctx.shm->reduce_record_seq(ctx.node_rank, call.line).store(call.seq, std::memory_order_release);
  const std::size_t n = shape.sources.size(), start = first_visit(shape.sources, ctx.node_rank);
  for (std::size_t i = 0; i < n; ++i) {
    const int r = shape.sources[(start + i) % n];
    for (polls = 0; !line_posted(ctx, r, call);) waiter.backoff(polls);
    take(r, line_data(ctx, r, call), 0, len);
  }
}

}  // namespace exchange_detail

template <typename Give, typename Take>
void staged_exchange(CommContext& ctx, const Config& config, const ExchangeShape& shape, Give give, Take take) {
  if (shape.max_block == 0) return;
  const int n = ctx.node_size, me = ctx.node_rank;
  Waiter waiter = Waiter::for_context(ctx, config);
  const std::uint64_t tiles = shape.per_destination ? static_cast<std::uint64_t>(n) : 1;
  if (tiles * shape.max_block <= kReduceLineBytes) {
    exchange_detail::through_lines(ctx, shape, waiter, give, take);
    return;
  }
  NodeShm& shm = *ctx.shm;
  // The lease gives each rank 2 x n x (asked) bytes: per destination a whole block per tile,
  // else the whole block in each half.
  const std::uint64_t asked = shape.per_destination ? shape.max_block : (shape.max_block + n - 1) / n;
  StagingAreas staging{};
  for (unsigned polls = 0; !try_node_staging_areas(ctx, config, asked, &staging);) waiter.backoff(polls);
  const std::uint64_t tile = shape.per_destination ? tile_bytes(staging, n)
                                                   : std::max<std::uint64_t>(staging.area / 2, 1);
  const std::size_t count = shape.sources.size(), start = exchange_detail::first_visit(shape.sources, me);
  for (std::uint64_t offset = 0; offset < shape.max_block; offset += tile) {
    const Round round = next_round(ctx, staging, std::min(tile, shape.max_block - offset));
    if (shape.gives) {
      unsigned polls = 0;
      while (rank_using_half(ctx, shm, round) >= 0) waiter.backoff(polls);
      give(const_cast<char*>(round.staged_by(me)), offset, round.len);
      shm.post(me).store(round.seq, std::memory_order_release);
    }
    for (std::size_t i = 0; i < count; ++i) {
      const int r = shape.sources[(start + i) % count];
      waiter.wait_for(shm.post(r), round.seq);
      take(r, round.staged_by(r), offset, round.len);
    }
    shm.done(me).store(round.seq, std::memory_order_release);
    ctx.last_stage_seq[round.h] = round.seq;
  }
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

}  // namespace mcorecoll
