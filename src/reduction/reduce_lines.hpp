// Reductions of one line (a contribution's image of at most kSlotBytes): every rank writes its
// contribution into one of its two lines of the segment, behind the call's sequence word, and
// whoever needs the result reads every rank's line: one cache-line transfer per rank, no
// staging area, no lease, no "done" handshake.
//
// Call m uses line m mod kReduceLines. A rank writes that line again at call m + kReduceLines
// only once every rank has posted call m + 1, which each does after it has finished reading
// call m. Allreduce and allgather wait for that anyway (they read every line of call m + 1);
// a reduce's non-roots may run kReduceLines - 1 calls ahead of their root, then wait here.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>

#include "node/node_shm.hpp"
#include "node/shm_layout.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {

constexpr std::size_t kReduceLineBytes = kSlotBytes;

struct LineCall {
  std::uint64_t seq = 0;  // 0: none yet
  int line = 0;           // seq mod kReduceLines
};

// The communicator's next call of one line (the count is alike on every node rank).
inline LineCall next_line_call(CommContext& ctx) {
  ++ctx.line_calls;
  return {ctx.line_calls, static_cast<int>(ctx.line_calls % kReduceLines)};
}

// A node rank that has not posted call seq - kReduceLines + 1 yet, or -1: until then this rank
// may not write its line of `call` (the line's last reader may still be at it). That call sits
// in line (seq + 1) mod kReduceLines, or a later call does (sequence numbers only grow).
inline int line_reader_behind(NodeShm& shm, int ranks, const LineCall& call) {
  const int line = static_cast<int>((call.seq + 1) % kReduceLines);
  for (int r = 0; r < ranks; ++r)
    if (shm.reduce_line(r, line).load(std::memory_order_acquire) + kReduceLines - 1 < call.seq) return r;
  return -1;
}

inline void post_line(NodeShm& shm, int me, const LineCall& call, const void* image, std::size_t bytes) {
  std::atomic<std::uint64_t>& line = shm.reduce_line(me, call.line);
  std::memcpy(reinterpret_cast<char*>(&line) + 8, image, bytes);
  line.store(call.seq, std::memory_order_release);
}

inline bool line_posted(NodeShm& shm, int r, const LineCall& call) {
  return shm.reduce_line(r, call.line).load(std::memory_order_acquire) >= call.seq;
}

inline const char* line_data(NodeShm& shm, int r, const LineCall& call) {
  return reinterpret_cast<const char*>(&shm.reduce_line(r, call.line)) + 8;
}

}  // namespace mcorecoll
