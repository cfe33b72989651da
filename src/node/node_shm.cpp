#include "node/node_shm.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>

#include "node/shm_object.hpp"

namespace mcorecoll {
namespace {

// Each rank's control page on that rank's NUMA domain (it is polled there); the common page and
// the slots (read by every rank) stay where first touched. Only a hint.
void place_pages(char* base, const std::vector<int>& numa_os) {
  const std::set<int> domains(numa_os.begin(), numa_os.end());
  if (domains.size() < 2 || domains.count(-1)) return;
  for (std::size_t r = 0; r < numa_os.size(); ++r)
    if (!place_on(base + r * kRankBlockBytes, kRankBlockBytes, numa_os[r])) return;
}

// Collective over `comm`: maps one segment of `bytes` per node on every rank of that node,
// made by the node's leader (communicator rank `leader`), or returns MAP_FAILED on every rank
// of the communicator with the worst errno of any rank in `*error`. Its space is reserved
// whole, so that a full /dev/shm (or memory limit) fails here, cleanly.
void* share(MPI_Comm comm, int leader, Backing backing, std::size_t bytes, const std::vector<int>& numa_os,
            int* error) {
  int rank = 0, size = 0;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  const bool leading = rank == leader;
  ShmAddress a;
  void* base = MAP_FAILED;
  int fd = -1;
  if (leading)
    fd = make_object(backing, "mcorecoll-segment", bytes, bytes,
                     [&](char* at) { place_pages(at, numa_os); }, &base, &a);
  // Every leader's address to every rank, on the application's communicator (no communicator
  // of the node's own: see node_key.hpp). Ranks of one node share an ABI.
  std::vector<ShmAddress> addresses(static_cast<std::size_t>(size));
  PMPI_Allgather(&a, sizeof(a), MPI_BYTE, addresses.data(), sizeof(a), MPI_BYTE, comm);
  const ShmAddress& theirs = addresses[static_cast<std::size_t>(leader)];
  int mine = theirs.error;
  if (!leading && !mine) fd = open_object(backing, theirs, &base, &mine);
  // Every node must agree: ranks of a node without shared memory take PMPI, and a node leader
  // elsewhere must not wait for them in the leaders' collectives.
  PMPI_Allreduce(&mine, error, 1, MPI_INT, MPI_MAX, comm);
  // Every rank has attached or given up: the leader's descriptor and the name are done with.
  // Unlink only an object we created, never one planted under our name.
  if (fd >= 0) close(fd);
  if (leading && backing == Backing::posix && fd >= 0) shm_unlink(a.name);
  if (*error != 0 && base != MAP_FAILED) {
    munmap(base, bytes);
    base = MAP_FAILED;
  }
  return base;
}

}  // namespace

std::size_t segment_bytes_before_pool(int ranks, const SegmentExtras& extras) {
  const std::size_t bytes = static_cast<std::size_t>(ranks) * (kRankBlockBytes + extras.stage_bytes) +
                            kCommonBytes + kSlots * kLineBytes + static_cast<std::size_t>(kReduceLines * ranks) * kReduceRecordBytes +
                            static_cast<std::size_t>(ranks) * fallback_stage_bytes(ranks) + extras.inbox_bytes;
  return (bytes + NodePool::kPage - 1) / NodePool::kPage * NodePool::kPage;
}

std::unique_ptr<NodeShm> NodeShm::create(MPI_Comm comm, int leader, const std::vector<int>& numa_os,
                                         const SegmentExtras& extras, NodePool* pool,
                                         SegmentKind kind, std::string* why) {
  const int size = static_cast<int>(numa_os.size());
  const std::size_t before_pool = segment_bytes_before_pool(size, extras);
  const std::size_t bytes = before_pool + extras.private_pool_bytes;
  why->clear();
  int error = 0;
  void* base = MAP_FAILED;
  if (kind != SegmentKind::posix) {
    base = share(comm, leader, Backing::memfd, bytes, numa_os, &error);
    if (base == MAP_FAILED) {
      *why = std::string("memfd segment refused (") + std::strerror(error) + ")";
      if (kind == SegmentKind::memfd) {
        *why = "cannot set up shared memory: " + *why;
        return nullptr;
      }
      *why += "; segments are POSIX shared memory in /dev/shm";
    }
  }
  if (base == MAP_FAILED) base = share(comm, leader, Backing::posix, bytes, numa_os, &error);
  if (base == MAP_FAILED) {
    *why = std::string("cannot set up shared memory in /dev/shm (") + std::strerror(error) + ")";
    return nullptr;
  }
  std::unique_ptr<NodeShm> shm(new NodeShm(base, bytes, size, extras));
  if (pool) {
    shm->pool_ = pool;
  } else {
    // Only the node leader ever leases (pool_lease.cpp): it lays the pool out before its first
    // lease, and nobody touches the pool before a lease exists.
    int rank = 0;
    PMPI_Comm_rank(comm, &rank);
    shm->private_pool_ = std::make_unique<NodePool>(static_cast<char*>(base) + before_pool,
                                                    extras.private_pool_bytes, -1, rank == leader);
    shm->pool_ = shm->private_pool_.get();
  }
  return shm;
}

std::size_t NodeShm::carved_bytes(int ranks, const SegmentExtras& extras) {
  return segment_bytes_before_pool(ranks, extras) + sizeof(CarvedTail);
}

std::uint64_t NodeShm::lease_carved(NodePool& pool, const std::vector<int>& numa_os, const SegmentExtras& extras) {
  const int ranks = static_cast<int>(numa_os.size());
  // Each rank's control page on its NUMA domain (a hint, as for a segment of its own).
  const std::uint64_t offset = pool.lease(carved_bytes(ranks, extras), kRankBlockBytes, numa_os, true);
  if (offset == NodePool::kNoSpace) return offset;
  auto* t = reinterpret_cast<CarvedTail*>(pool.at(offset) + segment_bytes_before_pool(ranks, extras));
  const std::set<int> domains(numa_os.begin(), numa_os.end());
  t->keep_pages = domains.size() < 2 ? 1 : 0;
  t->fixed_staging_written.store(0, std::memory_order_relaxed);
  t->attached.store(ranks, std::memory_order_release);
  return offset;
}

std::unique_ptr<NodeShm> NodeShm::carved(NodePool& pool, std::uint64_t offset, int ranks, const SegmentExtras& extras) {
  std::unique_ptr<NodeShm> shm(new NodeShm(pool.at(offset), segment_bytes_before_pool(ranks, extras), ranks, extras));
  shm->pool_ = &pool;
  shm->carved_ = true;
  return shm;
}

void NodeShm::unlease_carved(NodePool& pool, std::uint64_t offset, int ranks, const SegmentExtras& extras) {
  pool.release(offset, carved_bytes(ranks, extras));
}

NodeShm::~NodeShm() {
  if (carved_) {
    // The last node rank to let go: nobody reads the segment any more (each rank lets go only
    // after its own last collective on the communicator).
    if (tail()->attached.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      const std::uint64_t offset = static_cast<std::uint64_t>(base_ - pool_->at(0));
      const std::uint64_t bytes = carved_bytes(ranks_, extras_);
      // The fixed staging and inbox lie after everything else and hold no flags: untouched,
      // they are still zeros. Unused, they cost nothing but address space.
      const bool staging_written = tail()->fixed_staging_written.load(std::memory_order_relaxed) != 0;
      const bool keep_pages = tail()->keep_pages != 0;
      const std::uint64_t written = staging_written ? bytes : static_cast<std::uint64_t>(stage(0) - base_);
      // The tail (on a page of its own past the rest) is written too: back to zeros, or its
      // words would be the flags of whatever is carved there next.
      std::memset(static_cast<void*>(tail()), 0, sizeof(CarvedTail));
      if (keep_pages) pool_->release_kept(offset, bytes, written);
      else pool_->release(offset, bytes);
    }
    return;
  }
  private_pool_.reset();
  munmap(base_, bytes_);
}

}  // namespace mcorecoll
