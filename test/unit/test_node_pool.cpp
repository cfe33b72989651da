// The node pool's allocator (node_pool.hpp): leases never overlap, start zero-filled, and are
// all given back; small blocks (communicators' segments) come from the top and, released
// kept, are taken again by the next ones instead of new pages, so that communicators that come
// and go do not spread over the pool; seeded random sequences of leases and releases keep
// every invariant along the way.
#include "catch.hpp"

#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "node/node_pool.hpp"

using namespace mcorecoll;

namespace {

constexpr std::uint64_t kPage = NodePool::kPage;

struct PrivatePool {
  explicit PrivatePool(std::uint64_t bytes)
      : memory(static_cast<char*>(std::aligned_alloc(kPage, bytes)), &std::free), pool(memory.get(), bytes, -1, true) {}
  std::unique_ptr<char, decltype(&std::free)> memory;
  NodePool pool;
};

bool zero(const char* at, std::uint64_t bytes) {
  for (std::uint64_t i = 0; i < bytes; ++i)
    if (at[i] != 0) return false;
  return true;
}

const std::vector<int> kNoNuma = {-1};

}  // namespace

TEST_CASE("small blocks come from the top of the pool, large leases from the bottom") {
  PrivatePool p(4 << 20);
  const std::uint64_t empty = p.pool.leased_bytes();
  const std::uint64_t small = p.pool.lease(3 * kPage, kPage, kNoNuma, true);
  const std::uint64_t large = p.pool.lease(64 * kPage, kPage, kNoNuma);
  REQUIRE(small != NodePool::kNoSpace);
  REQUIRE(large != NodePool::kNoSpace);
  CHECK(small + 3 * kPage == (4u << 20));  // the very top
  CHECK(large == empty);                   // right after the header
  CHECK(p.pool.leased_bytes() == empty + 67 * kPage);
  p.pool.release(large, 64 * kPage);
  p.pool.release(small, 3 * kPage);
  CHECK(p.pool.leased_bytes() == empty);
}

TEST_CASE("a small block released kept is zeroed and is the next small lease of its size") {
  PrivatePool p(4 << 20);
  std::vector<std::uint64_t> blocks;
  for (int i = 0; i < 8; ++i) blocks.push_back(p.pool.lease(5 * kPage, kPage, kNoNuma, true));
  for (std::uint64_t b : blocks) {
    REQUIRE(b != NodePool::kNoSpace);
    std::memset(p.pool.at(b), 0x5a, 5 * kPage);  // used
  }
  // Large leases in between do not take the small blocks' pages.
  const std::uint64_t large = p.pool.lease(100 * kPage, kPage, kNoNuma);
  for (std::uint64_t b : blocks) CHECK((large + 100 * kPage <= b || b + 5 * kPage <= large));
  p.pool.release_kept(blocks[3], 5 * kPage, 5 * kPage);
  CHECK(zero(p.pool.at(blocks[3]), 5 * kPage));
  CHECK(p.pool.lease(5 * kPage, kPage, kNoNuma, true) == blocks[3]);
}

TEST_CASE("a block released kept is zeroed as far as it was written, and the rest was never written") {
  PrivatePool p(4 << 20);
  const std::uint64_t b = p.pool.lease(6 * kPage, kPage, kNoNuma, true);
  REQUIRE(b != NodePool::kNoSpace);
  std::memset(p.pool.at(b), 0x5a, 2 * kPage + 100);  // the first three pages written
  p.pool.release_kept(b, 6 * kPage, 2 * kPage + 100);
  CHECK(zero(p.pool.at(b), 6 * kPage));
  CHECK(p.pool.lease(6 * kPage, kPage, kNoNuma, true) == b);
}

TEST_CASE("seeded random leases and releases never overlap, start zeroed and all come back") {
  for (unsigned seed = 1; seed <= 40; ++seed) {
    PrivatePool p(2 << 20);  // 512 pages: full now and then
    const std::uint64_t empty = p.pool.leased_bytes();
    std::mt19937 rng(seed);
    std::map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>> live;  // offset -> bytes, written
    for (int step = 0; step < 400; ++step) {
      if (!live.empty() && rng() % 3 == 0) {
        auto it = live.begin();
        std::advance(it, static_cast<long>(rng() % live.size()));
        if (rng() % 2) p.pool.release_kept(it->first, it->second.first, it->second.second);
        else p.pool.release(it->first, it->second.first);
        live.erase(it);
        continue;
      }
      const bool small = rng() % 2;
      const std::uint64_t bytes = small ? (1 + rng() % 12) * kPage : (8 + rng() % 120) * kPage;
      const std::uint64_t at = p.pool.lease(bytes, kPage, kNoNuma, small);
      if (at == NodePool::kNoSpace) continue;
      INFO("seed " << seed << " step " << step << ": lease of " << bytes << " at " << at);
      REQUIRE(at % kPage == 0);
      REQUIRE(at >= empty);
      REQUIRE(at + bytes <= (2u << 20));
      REQUIRE(zero(p.pool.at(at), bytes));
      auto next = live.lower_bound(at);
      if (next != live.end()) REQUIRE(at + bytes <= next->first);
      if (next != live.begin()) {
        auto prev = std::prev(next);
        REQUIRE(prev->first + prev->second.first <= at);
      }
      // Written in full, or a part from the start (a segment whose fixed staging went unused).
      const std::uint64_t written = rng() % 2 ? bytes : rng() % (bytes + 1);
      std::memset(p.pool.at(at), static_cast<int>(seed), written);
      live[at] = {bytes, written};
    }
    for (const auto& [at, block] : live) p.pool.release(at, block.first);
    CHECK(p.pool.leased_bytes() == empty);
  }
}
