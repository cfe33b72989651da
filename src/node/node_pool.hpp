// One pool of shared memory per node, from which the communicators on that node lease the
// buffers that move data (the bcast ring's cells, the alltoall staging areas), instead of each
// communicator reserving its own at full size. Pages are reserved in memory when leased and
// given back to the kernel when released, so the pool holds what the communicators' largest
// operations need, not what their number would; it grows on demand up to its size
// (MCORECOLL_POOL_MAX_BYTES) and a lease it cannot grant fails at once, never waits.
//
// The pool is a memfd made by the first communicator set-up that needs it (its node leader) and
// opened by the other processes of the node through that leader's descriptor (shm_object.hpp),
// shared by every later communicator whose node leader maps it. Where memfd or /proc is refused,
// a communicator gets a private pool inside its own segment instead (the memory of before).
// Leasing and releasing take a process-shared mutex in the pool's first pages: rare operations
// (a communicator leases when its operations outgrow what it holds). The header also holds a
// bell per process of the node, for the progress helpers.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

namespace mcorecoll {

class NodePool {
 public:
  static constexpr std::uint64_t kPage = 4096;
  static constexpr std::uint64_t kNoSpace = ~0ull;

  // A pool over [base, base + bytes). `init`: lay its header out (the maker, before anyone else
  // sees it). `fd`: its memory file, whose pages are reserved when leased and punched out when
  // released; -1 for a pool whose memory is reserved whole (a private pool), whose released
  // pages are zeroed instead. Either way a lease starts zero-filled.
  NodePool(char* base, std::uint64_t bytes, int fd, bool init);
  NodePool(const NodePool&) = delete;
  NodePool& operator=(const NodePool&) = delete;

  // Leases `bytes` (rounded up to pages); its parts of `part_bytes` each are asked for on the
  // NUMA domains `numa_os` in turn (-1 entries, or a single domain: no placement). kNoSpace
  // when the pool has no room or the kernel refuses the memory.
  // `small_block`: the highest free run, so that small blocks given back by release_kept()
  // are taken again (their pages still in every process's page tables) and stay together, away
  // from the large leases, which search on from the last one, upwards.
  std::uint64_t lease(std::uint64_t bytes, std::uint64_t part_bytes, const std::vector<int>& numa_os,
                      bool small_block = false);
  void release(std::uint64_t offset, std::uint64_t bytes);
  // Releases pages that stay with the pool's file and in every process's page tables, zeroed
  // here so that the next lease still reads zeros: for the small blocks communicators come and
  // go with (their segments), whose punching out would cost every process of the node a TLB
  // shootdown and their next use page faults. `written_bytes`: how much of the block from its
  // start may hold anything but zeros (the rest was never written): only that is zeroed.
  void release_kept(std::uint64_t offset, std::uint64_t bytes, std::uint64_t written_bytes);
  char* at(std::uint64_t offset) const { return base_ + offset; }
  // Bytes leased now, the header's included (for tests and verbose mode).
  std::uint64_t leased_bytes() const;

  // The bells of the node's processes (progress_helper.hpp): a word each, in the header, that a
  // process's progress helper sleeps on and its peers ring. claim_bell() gives this process a
  // free one (or one whose process is gone), -1 when all are taken.
  static constexpr int kBells = 1024;
  int claim_bell();
  std::atomic<std::uint32_t>& bell(int slot) const;

  // The bytes a pool needs for its header when it spans `bytes`.
  static std::uint64_t header_bytes(std::uint64_t bytes);

 struct Header;  // in the pool's first pages (node_pool.cpp)

 private:
  Header* header() const { return reinterpret_cast<Header*>(base_); }
  char* base_;
  std::uint64_t bytes_;
  int fd_;
};

}  // namespace mcorecoll
