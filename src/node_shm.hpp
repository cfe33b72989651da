// The shared-memory segment of one communicator on one node: per-rank control lines, each on
// its own 128-byte line (the adjacent-line prefetcher pairs 64-byte lines) and written by one
// rank only, placed on the NUMA domain of the rank that owns it; then the bcast's one-line
// slots, the ring's cells, the alltoall staging areas and the leader's inbox.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config.hpp"
#include "shm_layout.hpp"

namespace mcorecoll {

// Flags carry sequence numbers that only grow and are never reset; compare wrap-safely.
inline bool reached(std::uint64_t value, std::uint64_t target) {
  return static_cast<std::int64_t>(value - target) >= 0;
}

// The ring of data cells that copy-in/copy-out collectives stage through. Every cell starts
// with its flag, and its data follows in the same line, so a small message arrives with the
// flag in one cache-line transfer.
struct RingGeometry {
  int cells = 0;
  std::size_t cell_bytes = 0;  // data bytes per cell
  std::size_t stage_bytes = 0;  // per-rank staging area (alltoall), a multiple of 4096
  std::size_t inbox_bytes = 0;  // the node leader's inbox (alltoall across nodes), or 0
  std::size_t stride() const { return (8 + cell_bytes + kLineBytes - 1) / kLineBytes * kLineBytes; }
};

class NodeShm {
 public:
  // Collective over `comm`: every node's ranks map one segment, made by their node leader
  // (communicator rank `leader`). On failure anywhere (a full /dev/shm, no permission, ...)
  // every rank returns null and `why` says what happened; on success `why` says why the
  // segment is not a memfd when `kind` allowed one (empty otherwise). `numa_os` gives the NUMA
  // domain (OS index, -1 unknown) of every node rank, and the node's size; the ring's cells
  // are spread over those domains in turn (the paper's NUMA-segmented staging buffer).
  static std::unique_ptr<NodeShm> create(MPI_Comm comm, int leader, const std::vector<int>& numa_os,
                                         const RingGeometry& ring, SegmentKind kind,
                                         std::string* why);
  ~NodeShm();
  NodeShm(const NodeShm&) = delete;
  NodeShm& operator=(const NodeShm&) = delete;

  // Control lines of node rank r: written by r only.
  std::atomic<std::uint64_t>& arrive(int r) { return line(r, 0); }
  std::atomic<std::uint64_t>& release(int r) { return line(r, 1); }
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
  // Bcast, small messages: the relay area of node rank r, leader of a group (socket) that the
  // source is not in. Its flag (the ring chunk it holds, plus one), then kRelayBytes of data
  // from the same line on, in r's own page, so that its group reads it locally.
  std::atomic<std::uint64_t>& relay_flag(int r) { return line(r, 8); }
  char* relay_data(int r) { return reinterpret_cast<char*>(&line(r, 8)) + 8; }

  // Slot i of the small-message ring: its flag (as a cell's), then kSlotBytes of data.
  std::atomic<std::uint64_t>& slot_flag(int i) {
    return *reinterpret_cast<std::atomic<std::uint64_t>*>(slot(i));
  }
  char* slot_data(int i) { return slot(i) + 8; }

  // Cell i of the ring: its flag (the ring chunk it holds, plus one) and its data.
  std::atomic<std::uint64_t>& cell_flag(int i) {
    return *reinterpret_cast<std::atomic<std::uint64_t>*>(cell(i));
  }
  char* cell_data(int i) { return cell(i) + 8; }
  const RingGeometry& ring() const { return ring_; }

  // Node rank r's staging area: written by r only, read by everyone.
  char* stage(int r) {
    return cell(ring_.cells) + static_cast<std::size_t>(r) * ring_.stage_bytes;
  }
  std::size_t stage_bytes() const { return ring_.stage_bytes; }

  // Half `h` (0 or 1) of the node leader's inbox: written by the leader, read by everyone.
  char* inbox(int h) {
    return stage(ranks_) + static_cast<std::size_t>(h) * (ring_.inbox_bytes / 2);
  }
  std::size_t inbox_half_bytes() const { return ring_.inbox_bytes / 2; }

 private:
  NodeShm(void* base, std::size_t bytes, int ranks, const RingGeometry& ring)
      : base_(static_cast<char*>(base)), bytes_(bytes), ranks_(ranks), ring_(ring) {}
  char* slot(int i) {
    return base_ + static_cast<std::size_t>(ranks_) * kRankBlockBytes + static_cast<std::size_t>(i) * kLineBytes;
  }
  char* cell(int i) {
    return base_ + static_cast<std::size_t>(ranks_) * kRankBlockBytes + kSlots * kLineBytes +
           static_cast<std::size_t>(i) * ring_.stride();
  }
  std::atomic<std::uint64_t>& line(int r, int index) {
    return *reinterpret_cast<std::atomic<std::uint64_t>*>(
        base_ + static_cast<std::size_t>(r) * kRankBlockBytes + static_cast<std::size_t>(index) * kLineBytes);
  }
  char* base_;
  std::size_t bytes_;
  int ranks_;
  RingGeometry ring_;
};

// A unique, identifiable segment name: user, job and creator, e.g.
// "/mcorecoll-0-1711603713-4242-3", so that a crash leaves leftovers one can attribute.
std::string segment_name(unsigned uid, const std::string& job, long pid, unsigned long serial);

}  // namespace mcorecoll
