// The shared-memory segment of one communicator on one node: per-rank control lines, each on
// its own 128-byte line (the adjacent-line prefetcher pairs 64-byte lines) and written by one
// rank only, placed on the NUMA domain of the rank that owns it.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mcorecoll {

constexpr std::size_t kLineBytes = 128;
constexpr std::size_t kRankBlockBytes = 4096;  // one page per rank, so mbind can place it

// Flags carry sequence numbers that only grow and are never reset; compare wrap-safely.
inline bool reached(std::uint64_t value, std::uint64_t target) {
  return static_cast<std::int64_t>(value - target) >= 0;
}

class NodeShm {
 public:
  // Collective over `node_comm`. On failure (a full /dev/shm, no permission, ...) every rank of
  // the node returns null with the same result and `why` says what happened.
  // `numa_os` gives the NUMA domain (OS index, -1 unknown) of every node rank.
  static std::unique_ptr<NodeShm> create(MPI_Comm node_comm, const std::vector<int>& numa_os,
                                         std::string* why);
  ~NodeShm();
  NodeShm(const NodeShm&) = delete;
  NodeShm& operator=(const NodeShm&) = delete;

  // Control lines of node rank r: written by r only.
  std::atomic<std::uint64_t>& arrive(int r) { return line(r, 0); }
  std::atomic<std::uint64_t>& release(int r) { return line(r, 1); }

  // Counts live segments in this process (tests check that none leak).
  static int live_segments();

 private:
  NodeShm(void* base, std::size_t bytes) : base_(static_cast<char*>(base)), bytes_(bytes) {}
  std::atomic<std::uint64_t>& line(int r, int index) {
    return *reinterpret_cast<std::atomic<std::uint64_t>*>(
        base_ + static_cast<std::size_t>(r) * kRankBlockBytes + static_cast<std::size_t>(index) * kLineBytes);
  }
  char* base_;
  std::size_t bytes_;
};

// A unique, identifiable segment name: user, job and creator, e.g.
// "/mcorecoll-0-1711603713-4242-3". Pure; unit-tested.
std::string segment_name(unsigned uid, const std::string& job, long pid, unsigned long serial);

}  // namespace mcorecoll
