// Record lines: small reductions, allgathers and exchanges (a contribution's image of at most
// kReduceLineBytes). Every rank writes its contribution into one of its records in the
// segment, followed by the call's sequence word, and whoever needs the result reads every
// rank's record: a transfer or two per rank, no staging area, no lease, no "done" handshake.
//
// Call m uses record m mod kReduceLines. A rank writes that record again at call
// m + kReduceLines only once every rank has posted call m + 1, which each does after it has
// finished reading call m. Allreduce and allgather wait for that anyway (they read every record
// of call m + 1); a reduce's non-roots may run kReduceLines - 1 calls ahead of their root, then
// wait here. What a rank has seen of the others' calls is remembered (ctx.channel.line_known), so that
// it reads another rank's record only when that knowledge runs out.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>

#include "node/node_shm.hpp"
#include "common/shm_layout.hpp"
#include "node/comm_context.hpp"
#include "node/transfer_count.hpp"

namespace mcorecoll {

struct LineCall {
  std::uint64_t seq = 0;  // 0: none yet
  int line = 0;           // seq mod kReduceLines: the record
};

// The communicator's next small call (the count is alike on every node rank).
inline LineCall next_line_call(CommContext& ctx) {
  ++ctx.channel.line_calls;
  if (ctx.channel.line_known.size() != static_cast<std::size_t>(ctx.node_size))
    ctx.channel.line_known.assign(static_cast<std::size_t>(ctx.node_size), 0);
  return {ctx.channel.line_calls, static_cast<int>(ctx.channel.line_calls % kReduceLines)};
}

// A node rank that has not posted call seq - kReduceLines + 1 yet, or -1: until then this rank
// may not write its record of `call` (the record's last reader may still be at it). That call
// sits in record (seq + 1) mod kReduceLines, or a later call does (sequence numbers only grow).
inline int line_reader_behind(CommContext& ctx, const LineCall& call) {
  const std::uint64_t need = call.seq + 1 > kReduceLines ? call.seq + 1 - kReduceLines : 0;
  const int record = static_cast<int>((call.seq + 1) % kReduceLines);
  for (int r = 0; r < ctx.node_size; ++r) {
    std::uint64_t& known = ctx.channel.line_known[static_cast<std::size_t>(r)];
    if (known >= need) continue;
    const std::uint64_t seen = ctx.channel.shm->reduce_record_seq(r, record).load(std::memory_order_acquire);
    if (seen > known) known = seen;
    if (known < need) return r;
  }
  return -1;
}

// This rank's record for its next small call, numbered on the first try: true once the record's
// last reader is done with it, else false with *waiting_on the rank behind.
inline bool record_ready(CommContext& ctx, LineCall& call, int* waiting_on) {
  if (call.seq == 0) call = next_line_call(ctx);
  const int behind = line_reader_behind(ctx, call);
  if (behind < 0) return true;
  *waiting_on = behind;
  return false;
}

// Posts this rank's record of `call`, written already (reduce_record()): its readers may read it.
inline void publish_line(CommContext& ctx, const LineCall& call) {
  std::atomic<std::uint64_t>& seq = ctx.channel.shm->reduce_record_seq(ctx.node_rank, call.line);
  seq.store(call.seq, std::memory_order_release);
  count_post(ctx, seq, call.seq);
}

inline void post_line(CommContext& ctx, const LineCall& call, const void* image, std::size_t bytes) {
  std::memcpy(ctx.channel.shm->reduce_record(ctx.node_rank, call.line), image, bytes);
  publish_line(ctx, call);
}

inline bool line_posted(CommContext& ctx, int r, const LineCall& call) {
  std::uint64_t& known = ctx.channel.line_known[static_cast<std::size_t>(r)];
  if (known >= call.seq) return true;
  const std::uint64_t seen = ctx.channel.shm->reduce_record_seq(r, call.line).load(std::memory_order_acquire);
  if (seen > known) known = seen;
  return seen >= call.seq;
}

// Node rank r's record of `call`, once line_posted() said so. Every caller takes it once per
// record it reads (the counted build records each call as a read of r's line).
inline const char* line_data(CommContext& ctx, int r, const LineCall& call) {
  count_read(ctx, ctx.channel.shm->reduce_record_seq(r, call.line), call.seq, r, kReduceLineBytes);
  return ctx.channel.shm->reduce_record(r, call.line);
}

}  // namespace mcorecoll
