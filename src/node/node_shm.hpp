// The shared-memory segment of one communicator on one node: what must be per communicator,
// a few pages per rank. Per-rank control lines, each on its own 128-byte line (the
// adjacent-line prefetcher pairs 64-byte lines) and written by one rank only, placed on the
// NUMA domain of the rank that owns it; a common page of lease lines; the bcast's one-line
// slots; kReduceLines records per rank for small reductions; the alltoall's fallback staging (a few
// lines per rank). The buffers that move larger
// data (ring cells, staging areas) are leased from the node's pool (node_pool.hpp,
// pool_lease.hpp); the slots and the fallback staging carry the data when the pool has no room.
// Only communicators that span nodes and may take the leaders' alltoall exchange keep fixed
// staging areas and an inbox here, and a communicator that cannot have the node pool gets a
// private pool at the segment's end.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "decisions/config.hpp"
#include "node/lease_protocol.hpp"
#include "node/node_pool.hpp"
#include "common/shm_layout.hpp"

namespace mcorecoll {

// Flags carry sequence numbers that only grow and are never reset; compare wrap-safely.
inline bool reached(std::uint64_t value, std::uint64_t target) {
  return static_cast<std::int64_t>(value - target) >= 0;
}

// A switch agreed without waiting (node/setup_window.hpp; learning's turns, entry/learning.cpp):
// in one word, the turn (bits 48-62; a set-up's is always 0), closed (bit 63), and the switch
// call once closed, else the latest call any rank has published as taken before the switch (bits
// 0-47). publish_switch() publishes `call` for turn `turn` (a word holding an earlier turn is that
// turn's, closed: every rank knew its switch before any published for the next); `close`: closes
// the turn at one past the latest call published. Returns the switch call once the turn is
// closed, else 0.
constexpr std::uint64_t kSwitchClosed = 1ull << 63;
constexpr int kSwitchTurnShift = 48;
constexpr std::uint64_t kSwitchCall = (1ull << kSwitchTurnShift) - 1;
constexpr std::uint64_t kSwitchTurnsMost = (1ull << (63 - kSwitchTurnShift)) - 1;  // the turn's bits never wrap
inline std::uint64_t switch_turn(std::uint64_t state) { return (state & ~kSwitchClosed) >> kSwitchTurnShift; }
inline std::uint64_t publish_switch(std::atomic<std::uint64_t>& state, std::uint64_t turn, std::uint64_t call,
                                    bool close) {
  std::uint64_t s = state.load(std::memory_order_acquire);
  for (;;) {
    const bool ours = switch_turn(s) == turn;
    if (ours && (s & kSwitchClosed)) return s & kSwitchCall;
    const std::uint64_t latest = ours ? std::max(s & kSwitchCall, call) : call;
    const std::uint64_t next = turn << kSwitchTurnShift | (close ? kSwitchClosed | (latest + 1) : latest);
    if (next == s) return 0;
    if (state.compare_exchange_weak(s, next, std::memory_order_acq_rel)) return close ? latest + 1 : 0;
  }
}

// What a segment holds beyond its control pages and slots.
struct SegmentExtras {
  std::size_t stage_bytes = 0;         // per rank: fixed staging for the leaders' exchange, or 0
  std::size_t inbox_bytes = 0;         // the node leader's inbox for that exchange, or 0
  std::size_t private_pool_bytes = 0;  // a private pool (no node pool), or 0
};

// Bytes of each rank's fallback staging on a node of `ranks` ranks: room for a tile of at least
// one byte per rank in each half, and at least two lines.
inline std::size_t fallback_stage_bytes(int ranks) {
  const std::size_t need = 2 * static_cast<std::size_t>(ranks);
  return std::max<std::size_t>(2 * kLineBytes, (need + kLineBytes - 1) / kLineBytes * kLineBytes);
}

class NodeShm {
 public:
  // Collective over `comm`: every node's ranks map one segment, made by their node leader
  // (communicator rank `leader`). On failure anywhere (a full /dev/shm, no permission, ...)
  // every rank returns null and `why` says what happened; on success `why` says why the
  // segment is not a memfd when `kind` allowed one (empty otherwise). `numa_os` gives the NUMA
  // domain (OS index, -1 unknown) of every node rank, and the node's size. `pool`: the node
  // pool, or null for a private one (extras.private_pool_bytes).
  static std::unique_ptr<NodeShm> create(MPI_Comm comm, int leader, const std::vector<int>& numa_os,
                                         const SegmentExtras& extras, NodePool* pool,
                                         SegmentKind kind, std::string* why);
  // A segment carved out of the node's pool instead (node_setup.cpp): no mapping of its
  // own, so a communicator comes and goes without a system call. The node leader leases it
  // (lease_carved: zeroed, every node rank counted as attached, or NodePool::kNoSpace), then
  // every node rank takes its view (carved); the last view to go gives the pages back.
  static std::uint64_t lease_carved(NodePool& pool, const std::vector<int>& numa_os, const SegmentExtras& extras);
  static std::unique_ptr<NodeShm> carved(NodePool& pool, std::uint64_t offset, int ranks, const SegmentExtras& extras);
  // Gives back a carved lease nobody took a view of (the set-up failed elsewhere).
  static void unlease_carved(NodePool& pool, std::uint64_t offset, int ranks, const SegmentExtras& extras);
  ~NodeShm();
  NodeShm(const NodeShm&) = delete;
  NodeShm& operator=(const NodeShm&) = delete;

  // Control lines of node rank r: written by r only.
  std::atomic<std::uint64_t>& arrive(int r) { return line(r, 0); }
  std::atomic<std::uint64_t>& release(int r) { return line(r, 1); }
  // A barrier that carries a vote (barrier_shm.hpp's node_vote): the bit node rank r carries up
  // with its arrival and the answer it carries down with its release, in later words of the
  // same lines. Two words, by turns of the communicator's blocking barriers (`turn`, not its
  // sequence numbers, which calls that wait for no one also advance): a rank may be one barrier
  // ahead of a slow reader, never two, since the next barrier waits for the reader's arrival.
  std::atomic<std::uint64_t>& arrive_vote(int r, std::uint64_t turn) { return (&line(r, 0))[1 + (turn & 1)]; }
  std::atomic<std::uint64_t>& release_vote(int r, std::uint64_t turn) { return (&line(r, 1))[1 + (turn & 1)]; }
  // Ring chunks node rank r has finished with (copy-in/copy-out); a cell is refilled only
  // when every rank is past it.
  std::atomic<std::uint64_t>& consumed(int r) { return line(r, 2); }
  // Single copy: the source posts its buffer (post = sequence, then address/length/pid in the
  // line of `posted`), readers say they are done.
  std::atomic<std::uint64_t>& post(int r) { return line(r, 3); }
  std::atomic<std::uint64_t>& done(int r) { return line(r, 4); }
  std::atomic<std::uint64_t>* posted(int r) { return &line(r, 5); }  // [address, length, pid]
  // Alltoall across nodes: the leader (node rank 0) has put a round's data from other nodes
  // into the inbox.
  std::atomic<std::uint64_t>& delivered() { return line(0, 6); }
  // Alltoall: how many ranks read node rank r's staging area right now (written by all).
  std::atomic<std::uint64_t>& readers(int r) { return line(r, 7); }
  // The generations of the communicator's leases that node rank r has read, a word per
  // LeaseKind (lease_protocol.hpp); lease_ack_base(k) + r * kRankBlockBytes is r's word.
  char* lease_ack_base(int kind) { return reinterpret_cast<char*>(&line(0, 8)) + static_cast<std::size_t>(kind) * 8; }
  // The bell of node rank r's process in the node pool, plus one (0: none known; written by r
  // once its segment is mapped; progress_helper.hpp).
  std::atomic<std::uint64_t>& bell_slot(int r) { return (&line(r, 8))[kLeaseKinds]; }
  // Reductions: node rank r has combined its slice of the round (reduction/reduce_shm.hpp).
  std::atomic<std::uint64_t>& reduced(int r) { return (&line(r, 8))[kLeaseKinds + 1]; }
  // Learning in the run, a class agreeing without waiting (entry/learning.cpp): node rank r's
  // own times on the candidates, kLearnTimesWords words after a tag (the class's turn, plus
  // one, stored last), written by r only.
  static constexpr int kLearnTimesWords = 7;
  std::atomic<std::uint64_t>* learn_times(int r) {
    static_assert((kLeaseKinds + 2 + 1 + kLearnTimesWords) * 8 <= kLineBytes, "the times fit the line");
    return &(&line(r, 8))[kLeaseKinds + 2];
  }
  // Bcast, small messages: the relay area of node rank r, leader of a group (socket) that the
  // source is not in. Its flag (the ring chunk it holds, plus one), then kRelayBytes of data
  // from the same line on, in r's own page, so that its group reads it locally.
  std::atomic<std::uint64_t>& relay_flag(int r) { return line(r, kRelayLine); }
  char* relay_data(int r) { return reinterpret_cast<char*>(&line(r, kRelayLine)) + 8; }

  // The lease lines of the common page, one per LeaseKind.
  LeaseLine& lease_line(int kind) {
    return *reinterpret_cast<LeaseLine*>(common() + static_cast<std::size_t>(kind) * kLineBytes);
  }
  // A set-up made without waiting (node/setup_window.hpp): where its node ranks agree on the
  // call from which they take mcorecoll's paths, in the common page's last line.
  struct SwitchLine {
    // publish_switch()'s word, of turn 0 (closed: the switch call; open: the latest call any
    // node rank has published as going to the MPI library).
    std::atomic<std::uint64_t> state;
    std::atomic<std::uint64_t> attached;  // node ranks that have taken their view
    std::atomic<std::uint64_t> refused;   // of them, those that may not use single copy
  };
  SwitchLine& switch_line() {
    static_assert(kLeaseKinds * kLineBytes <= kCommonBytes - kLineBytes, "the lease lines leave the last line free");
    return *reinterpret_cast<SwitchLine*>(common() + kCommonBytes - kLineBytes);
  }

  // Learning in the run: where the node ranks agree, without waiting, on what a class of the
  // communicator learned (entry/learning.cpp), one class at a time, by turns; the counts only
  // grow (turn t ends with (t + 1) posts and holders a node rank). In the line after the lease
  // lines.
  struct LearnLine {
    std::atomic<std::uint64_t> posted;   // node ranks that posted their times
    std::atomic<std::uint64_t> holders;  // node ranks that judged them
    // publish_switch()'s word: the turn, and its switch call once closed, else the latest call
    // any node rank that judged published as taking the row's path.
    std::atomic<std::uint64_t> state;
  };
  LearnLine& learn_line() {
    static_assert((kLeaseKinds + 1) * kLineBytes <= kCommonBytes - (2 * kLinesPerDup + 1) * kLineBytes,
                  "the learning line lies before the duplicates' lines");
    return *reinterpret_cast<LearnLine*>(common() + static_cast<std::size_t>(kLeaseKinds) * kLineBytes);
  }

  // A duplicate set up at its MPI_Comm_dup (node/dup_setup.hpp): where the node ranks of the
  // communicator duplicated answer (before the MPI library's duplication) whether they can take
  // the duplicate, and its node leader hands them its segment and the verdict the leaders agreed
  // on, by turns (duplicate k in line k % 2), in the lines before the switch line. The counts
  // only grow: turn t of a line (t = k / 2) ends with (t + 1) answers and dones a node rank.
  static constexpr std::size_t kLinesPerDup = 3;
  struct DupLine {
    std::atomic<std::uint64_t> answers;   // answers so far (node ranks but the leader)
    std::atomic<std::uint64_t> refusals;  // of them, refusals
    std::atomic<std::uint64_t> verdict;   // 2 (k + 1) + 1 where every node takes it, 2 (k + 1) where not
    std::atomic<std::uint64_t> done;      // verdicts read so far
    unsigned char news[kLinesPerDup * kLineBytes - 32];  // the leader's LeaderNews (node_setup.hpp), as bytes
  };
  DupLine& dup_line(std::uint64_t k) {
    static_assert(sizeof(DupLine) == kLinesPerDup * kLineBytes, "a duplicate's line is whole lines");
    static_assert(kLeaseKinds * kLineBytes <= kCommonBytes - (2 * kLinesPerDup + 1) * kLineBytes,
                  "the lease lines leave the duplicates' and the switch line free");
    return *reinterpret_cast<DupLine*>(common() + kCommonBytes - kLineBytes - (2 - (k & 1)) * kLinesPerDup * kLineBytes);
  }

  // The first of the kSlots one-line slots (flag, then kSlotBytes of data each).
  char* slots() { return common() + kCommonBytes; }

  // Small reductions (node/record_lines.hpp): node rank r's kReduceLines records, used by
  // calls in turn (data, then the call's sequence word at the end), written by r only.
  char* reduce_record(int r, int k) {
    return slots() + kSlots * kLineBytes + static_cast<std::size_t>(kReduceLines * r + k) * kReduceRecordBytes;
  }
  std::atomic<std::uint64_t>& reduce_record_seq(int r, int k) {
    return *reinterpret_cast<std::atomic<std::uint64_t>*>(reduce_record(r, k) + kReduceRecordBytes - 8);
  }
  // The alltoall's staging when the pool has no room: node rank r's area of
  // fallback_stage_bytes(), written by r only, read by everyone.
  char* fallback_stage(int r) {
    return slots() + kSlots * kLineBytes + static_cast<std::size_t>(kReduceLines * ranks_) * kReduceRecordBytes +
           static_cast<std::size_t>(r) * fallback_stage_bytes(ranks_);
  }
  // Fixed staging (communicators that take the leaders' exchange): node rank r's area, written
  // by r only, read by everyone; and half `h` of the node leader's inbox.
  char* stage(int r) { return fallback_stage(ranks_) + static_cast<std::size_t>(r) * extras_.stage_bytes; }
  std::size_t stage_bytes() const { return extras_.stage_bytes; }
  // Said before the fixed staging or the inbox is written (see CarvedTail). Stored once: every
  // node rank says it on every call, and a store each time would bounce the tail's line.
  void note_fixed_staging_written() {
    if (carved_ && !tail()->fixed_staging_written.load(std::memory_order_relaxed))
      tail()->fixed_staging_written.store(1, std::memory_order_relaxed);
  }
  // Carved out of the node's pool (its leader's), which every node rank maps.
  bool carved() const { return carved_; }
  // The pool is the communicator's own, in the segment (no node pool could be had).
  bool has_private_pool() const { return extras_.private_pool_bytes > 0; }
  char* inbox(int h) {
    note_fixed_staging_written();
    return stage(ranks_) + static_cast<std::size_t>(h) * (extras_.inbox_bytes / 2);
  }
  std::size_t inbox_half_bytes() const { return extras_.inbox_bytes / 2; }

  // Where this communicator's leases come from.
  NodePool& pool() { return *pool_; }
  // The segment's first byte in this process: offsets from it are alike on every node rank
  // (node/transfer_count.hpp names flags by them).
  const char* base() const { return base_; }

 private:
  NodeShm(void* base, std::size_t bytes, int ranks, const SegmentExtras& extras)
      : base_(static_cast<char*>(base)), bytes_(bytes), ranks_(ranks), extras_(extras) {}
  char* common() { return base_ + static_cast<std::size_t>(ranks_) * kRankBlockBytes; }
  std::atomic<std::uint64_t>& line(int r, int index) {
    return *reinterpret_cast<std::atomic<std::uint64_t>*>(
        base_ + static_cast<std::size_t>(r) * kRankBlockBytes + static_cast<std::size_t>(index) * kLineBytes);
  }
  // After a carved segment's data: how many node ranks still hold a view, and whether its pages
  // stay with the pool when it goes (one NUMA domain: nothing to place anew).
  struct CarvedTail {
    std::atomic<std::int32_t> attached;
    std::int32_t keep_pages;
    // The fixed staging and inbox (the alltoall's leaders' exchange) were written: the last
    // rank to let go zeroes them too (else only what lies before them).
    std::atomic<std::int32_t> fixed_staging_written;
  };
  static std::size_t carved_bytes(int ranks, const SegmentExtras& extras);
  CarvedTail* tail() { return reinterpret_cast<CarvedTail*>(base_ + bytes_); }

  char* base_;
  std::size_t bytes_;
  int ranks_;
  SegmentExtras extras_;
  NodePool* pool_ = nullptr;
  std::unique_ptr<NodePool> private_pool_;
  bool carved_ = false;  // from pool_ at base_ (no mapping of its own)
};

// The bytes of a segment for `ranks` ranks, before its private pool (page-aligned).
std::size_t segment_bytes_before_pool(int ranks, const SegmentExtras& extras);

}  // namespace mcorecoll
