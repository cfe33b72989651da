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
ShmAddress own_pool_address(std::uint64_t max_bytes) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_pools.empty()) return g_pools.front().address;
  ShmAddress mine;
  void* base = MAP_FAILED;
  const std::uint64_t header = NodePool::header_bytes(max_bytes);
  const int fd = make_object(Backing::memfd, "mcorecoll-pool", max_bytes, header, nullptr, &base, &mine);
  if (fd >= 0) {
    g_pools.push_back({std::make_unique<NodePool>(static_cast<char*>(base), max_bytes, fd, true), mine});
    g_pools.back().bell = g_pools.back().pool->claim_bell();
  }
  return mine;
}

ShmAddress first_pool_address() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_pools.empty()) return g_pools.front().address;
  ShmAddress none;
  none.error = ENOENT;
  return none;
}

NodePool* pool_at(const ShmAddress& a, int* error) {
  *error = a.error;
  if (*error) return nullptr;
  std::lock_guard<std::mutex> lock(g_mutex);
  if (MappedPool* known = find_pool(a.dev, a.ino)) return known->pool.get();
  if (g_pools.size() >= kMaxPools) {
    *error = EMFILE;
    return nullptr;
  }
  void* base = MAP_FAILED;
  const int fd = open_object(Backing::memfd, a, &base, error);
  if (fd < 0) return nullptr;
  ShmAddress own = a;
  own.pid = static_cast<long>(getpid());
  own.fd = fd;  // later openers may come through this process
  g_pools.push_back({std::make_unique<NodePool>(static_cast<char*>(base), a.bytes, fd, false), own});
  g_pools.back().bell = g_pools.back().pool->claim_bell();
  return g_pools.back().pool.get();
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
