#include "node/node_pool_share.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <mutex>

#include "node/shm_object.hpp"

namespace mcorecoll {
namespace {

// The pools this process maps (few: normally one per node), for the life of the process.
struct MappedPool {
  std::unique_ptr<NodePool> pool;
  ShmAddress address;  // this process's own descriptor, pid and the object's identity
  int bell = -1;       // this process's bell in it
};
std::mutex g_mutex;
std::vector<MappedPool> g_pools;
constexpr std::size_t kMaxPools = 4;

MappedPool* find_pool(std::uint64_t dev, std::uint64_t ino) {
  for (MappedPool& m : g_pools)
    if (m.address.dev == dev && m.address.ino == ino) return &m;
  return nullptr;
}

}  // namespace

// The registry's lock is never held across a collective call: threads of this process may be
// in the set-up of other communicators, whose other ranks wait for them there.
NodePool* share_node_pool(MPI_Comm comm, int leader, std::uint64_t max_bytes, std::string* why) {
  int rank = 0, size = 0;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  ShmAddress mine;
  if (rank == leader) {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!g_pools.empty()) {
      mine = g_pools.front().address;
    } else {
      void* base = MAP_FAILED;
      const std::uint64_t header = NodePool::header_bytes(max_bytes);
      const int fd = make_object(Backing::memfd, "mcorecoll-pool", max_bytes, header, nullptr, &base, &mine);
      if (fd >= 0) {
        g_pools.push_back({std::make_unique<NodePool>(static_cast<char*>(base), max_bytes, fd, true), mine});
        g_pools.back().bell = g_pools.back().pool->claim_bell();
      }
    }
  }
  std::vector<ShmAddress> all(static_cast<std::size_t>(size));
  PMPI_Allgather(&mine, sizeof(mine), MPI_BYTE, all.data(), sizeof(mine), MPI_BYTE, comm);
  const ShmAddress& theirs = all[static_cast<std::size_t>(leader)];
  int error = theirs.error;
  NodePool* pool = nullptr;
  if (!error) {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (MappedPool* known = find_pool(theirs.dev, theirs.ino)) {
      pool = known->pool.get();
    } else if (g_pools.size() >= kMaxPools) {
      error = EMFILE;
    } else {
      void* base = MAP_FAILED;
      const int fd = open_object(Backing::memfd, theirs, &base, &error);
      if (fd >= 0) {
        ShmAddress own = theirs;
        own.pid = static_cast<long>(getpid());
        own.fd = fd;  // later openers may come through this process
        g_pools.push_back({std::make_unique<NodePool>(static_cast<char*>(base), theirs.bytes, fd, false), own});
        g_pools.back().bell = g_pools.back().pool->claim_bell();
        pool = g_pools.back().pool.get();
      }
    }
  }
  int worst = 0;
  PMPI_Allreduce(&error, &worst, 1, MPI_INT, MPI_MAX, comm);
  if (worst) {
    *why = std::string("no node pool (") + std::strerror(worst) + ")";
    return nullptr;
  }
  return pool;
}

std::atomic<std::uint32_t>* own_bell() {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (const MappedPool& m : g_pools)
    if (m.bell >= 0) return &m.pool->bell(m.bell);
  return nullptr;
}

int own_bell_slot(const NodePool* pool) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (const MappedPool& m : g_pools) {
    if (m.bell < 0) continue;
    return m.pool.get() == pool ? m.bell : -1;  // only the first pool's bell is listened to
  }
  return -1;
}

}  // namespace mcorecoll
