#include "node/node_pool.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <set>

#include "node/shm_object.hpp"

namespace mcorecoll {

struct NodePool::Header {
  std::uint64_t magic;
  std::uint64_t pages;         // in the pool, the header's included
  std::uint64_t next;          // where the next search for free pages starts
  std::uint64_t used;          // pages leased now, the header's included
  pthread_mutex_t mutex;       // process-shared and robust
  std::uint64_t bitmap[1];     // one bit per page, set while leased (runs on past the struct)
  // ... then, from bells_offset(), kBells bells: [word, pid of its process]
};

namespace {

constexpr std::uint64_t kMagic = 0x6d63636f6c706f6full;  // "mccolpool"

std::uint64_t pages_of(std::uint64_t bytes) { return (bytes + NodePool::kPage - 1) / NodePool::kPage; }

// Holds the pool's mutex; a holder that died (its job is ending) leaves it consistent enough:
// the bitmap is only ever changed a whole run at a time.
class PoolLock {
 public:
  explicit PoolLock(pthread_mutex_t* m) : m_(m) {
    if (pthread_mutex_lock(m_) == EOWNERDEAD) pthread_mutex_consistent(m_);
  }
  ~PoolLock() { pthread_mutex_unlock(m_); }

 private:
  pthread_mutex_t* m_;
};

bool bit(const std::uint64_t* map, std::uint64_t i) { return (map[i / 64] >> (i % 64)) & 1u; }
void set_run(std::uint64_t* map, std::uint64_t first, std::uint64_t n, bool on) {
  for (std::uint64_t i = first; i < first + n; ++i) {
    if (on) map[i / 64] |= 1ull << (i % 64);
    else map[i / 64] &= ~(1ull << (i % 64));
  }
}

// First run of `n` free pages in [from, to); `to` if none.
std::uint64_t find_run(const std::uint64_t* map, std::uint64_t from, std::uint64_t to, std::uint64_t n) {
  std::uint64_t run = 0;
  for (std::uint64_t i = from; i < to; ++i) {
    if (i % 64 == 0 && map[i / 64] == ~0ull && i + 64 <= to) {  // a full word: skip it whole
      run = 0;
      i += 63;
      continue;
    }
    run = bit(map, i) ? 0 : run + 1;
    if (run == n) return i + 1 - n;
  }
  return to;
}

// Last run of `n` free pages in [from, to) (its first page); `to` if none.
std::uint64_t find_last_run(const std::uint64_t* map, std::uint64_t from, std::uint64_t to, std::uint64_t n) {
  std::uint64_t run = 0;
  for (std::uint64_t i = to; i-- > from;) {
    if (i % 64 == 63 && map[i / 64] == ~0ull && i >= from + 63) {  // a full word: skip it whole
      run = 0;
      i -= 63;
      continue;
    }
    run = bit(map, i) ? 0 : run + 1;
    if (run == n) return i;
  }
  return to;
}

}  // namespace

namespace {

std::uint64_t bells_offset(std::uint64_t bytes) {
  return (offsetof(NodePool::Header, bitmap) + (pages_of(bytes) + 63) / 64 * 8 + 63) / 64 * 64;
}

}  // namespace

std::uint64_t NodePool::header_bytes(std::uint64_t bytes) {
  return pages_of(bells_offset(bytes) + static_cast<std::uint64_t>(kBells) * 8) * kPage;
}

std::atomic<std::uint32_t>& NodePool::bell(int slot) const {
  return *reinterpret_cast<std::atomic<std::uint32_t>*>(base_ + bells_offset(bytes_) + static_cast<std::uint64_t>(slot) * 8);
}

int NodePool::claim_bell() {
  Header* h = header();
  PoolLock lock(&h->mutex);
  for (int slot = 0; slot < kBells; ++slot) {
    auto* pid = reinterpret_cast<std::atomic<std::uint32_t>*>(&bell(slot)) + 1;
    const pid_t holder = static_cast<pid_t>(pid->load(std::memory_order_relaxed));
    if (holder != 0 && (kill(holder, 0) == 0 || errno != ESRCH)) continue;
    bell(slot).store(0, std::memory_order_relaxed);
    pid->store(static_cast<std::uint32_t>(getpid()), std::memory_order_relaxed);
    return slot;
  }
  return -1;
}

NodePool::NodePool(char* base, std::uint64_t bytes, int fd, bool init) : base_(base), bytes_(bytes), fd_(fd) {
  if (!init) return;
  Header* h = header();
  h->pages = pages_of(bytes);
  h->used = pages_of(header_bytes(bytes));
  h->next = h->used;
  std::memset(h->bitmap, 0, (h->pages + 63) / 64 * 8);
  set_run(h->bitmap, 0, h->used, true);
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
  pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
  pthread_mutex_init(&h->mutex, &attr);
  pthread_mutexattr_destroy(&attr);
  h->magic = kMagic;
}

std::uint64_t NodePool::lease(std::uint64_t bytes, std::uint64_t part_bytes, const std::vector<int>& numa_os,
                              bool small_block) {
  Header* h = header();
  const std::uint64_t n = pages_of(bytes);
  std::uint64_t first = h->pages;
  {
    PoolLock lock(&h->mutex);
    const std::uint64_t header_pages = pages_of(header_bytes(bytes_));
    if (small_block) {
      first = find_last_run(h->bitmap, header_pages, h->pages, n);
    } else {
      first = find_run(h->bitmap, std::max(h->next, header_pages), h->pages, n);
      if (first == h->pages) first = find_run(h->bitmap, 0, h->pages, n);
    }
    if (first == h->pages) return kNoSpace;
    set_run(h->bitmap, first, n, true);
    h->used += n;
    if (!small_block) h->next = first + n;
  }
  const std::uint64_t offset = first * kPage, length = n * kPage;
  if (fd_ < 0) {
    std::memset(base_ + offset, 0, length);
    return offset;
  }
  // Each part on its domain (whole pages only), then its pages reserved, so that running out
  // of memory fails here and never later as SIGBUS.
  const std::set<int> domains(numa_os.begin(), numa_os.end());
  if (domains.size() > 1 && !domains.count(-1) && part_bytes > 0) {
    for (std::uint64_t at = 0, i = 0; at < length; at += part_bytes, ++i) {
      const std::uint64_t begin = (at + kPage - 1) / kPage * kPage;
      const std::uint64_t end = std::min(length, (at + part_bytes) / kPage * kPage);
      if (end > begin && !place_on(base_ + offset + begin, end - begin, numa_os[i % numa_os.size()])) break;
    }
  }
  if (fallocate(fd_, 0, static_cast<off_t>(offset), static_cast<off_t>(length)) != 0) {
    release(offset, length);
    return kNoSpace;
  }
  return offset;
}

void NodePool::release(std::uint64_t offset, std::uint64_t bytes) {
  const std::uint64_t n = pages_of(bytes);
  // Back to the kernel: the pool holds no memory it does not lease, and the next lease of these
  // pages reads zeros.
  if (fd_ >= 0) fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(offset), static_cast<off_t>(n * kPage));
  Header* h = header();
  PoolLock lock(&h->mutex);
  set_run(h->bitmap, offset / kPage, n, false);
  h->used -= n;
}

void NodePool::release_kept(std::uint64_t offset, std::uint64_t bytes, std::uint64_t written_bytes) {
  const std::uint64_t n = pages_of(bytes);
  std::memset(base_ + offset, 0, std::min(n, pages_of(written_bytes)) * kPage);
  Header* h = header();
  PoolLock lock(&h->mutex);
  set_run(h->bitmap, offset / kPage, n, false);
  h->used -= n;
}

std::uint64_t NodePool::leased_bytes() const {
  Header* h = header();
  PoolLock lock(&h->mutex);
  return h->used * kPage;
}

}  // namespace mcorecoll
