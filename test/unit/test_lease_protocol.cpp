// The lease protocol (lease_protocol.hpp) between the ranks of one simulated node: every state a
// communicator's lease goes through (empty, grown, shrunk, exhausted, fallen back, recovered,
// given back), with every rank's view checked equal after each change, and random
// interleavings in which ranks lag behind the leader by whole operations.
#include "catch.hpp"

#include <cstdlib>
#include <memory>
#include <random>
#include <vector>

#include "node/lease_protocol.hpp"
#include "common/shm_layout.hpp"

using namespace mcorecoll;

namespace {

struct Wish {
  std::uint64_t want0, want1;
};

// One node: a pool in ordinary memory, and per communicator a lease line and every rank's
// acknowledgement line, as a segment holds them.
class Node {
 public:
  Node(int ranks, std::uint64_t pool_bytes)
      : ranks_(ranks), numa_(static_cast<std::size_t>(ranks), -1),
        memory_(static_cast<char*>(std::aligned_alloc(NodePool::kPage, pool_bytes)), &std::free),
        pool_(memory_.get(), pool_bytes, -1, true) {}

  int ranks() const { return ranks_; }
  NodePool& pool() { return pool_; }

  // The leased bytes of an empty pool (its header), measured once.
  void note_empty() { base_leased_ = pool_.leased_bytes(); }
  std::uint64_t empty_bytes() const { return base_leased_; }

  const std::vector<int>& numa() const { return numa_; }

 private:
  int ranks_;
  std::vector<int> numa_;
  std::unique_ptr<char, decltype(&std::free)> memory_;
  NodePool pool_;
  std::uint64_t base_leased_ = 0;
};

// One communicator's lease of one kind on that node: its line, its ranks' acknowledgements and
// each rank's view.
class Communicator {
 public:
  Communicator(Node& node, LeaseKind kind)
      : node_(node), kind_(kind), line_(std::make_unique<LeaseLine>()),
        acks_(static_cast<std::size_t>(node.ranks()) * kLineBytes, 0),
        views_(static_cast<std::size_t>(node.ranks())) {
    line_->generation.store(0);
    line_->offset = NodePool::kNoSpace;
    line_->bytes = 0;
    line_->shape[0] = line_->shape[1] = 0;
  }
  ~Communicator() { drop(); }

  LeaseAnswer ask(int r, const Wish& w) {
    const LeaseParty party = {&node_.pool(), line_.get(), acks_.data(), kLineBytes, r, node_.ranks(), kind_,
                              &node_.numa()};
    return ask_lease(party, views_[static_cast<std::size_t>(r)], w.want0, w.want1);
  }

  // Every rank asks in turn, the leader first, until each has an answer; all answers returned.
  std::vector<LeaseAnswer> ask_all(const Wish& w) {
    std::vector<LeaseAnswer> answers(static_cast<std::size_t>(node_.ranks()), LeaseAnswer::pending);
    for (int round = 0; round < 4; ++round)
      for (int r = 0; r < node_.ranks(); ++r)
        if (answers[static_cast<std::size_t>(r)] == LeaseAnswer::pending) answers[static_cast<std::size_t>(r)] = ask(r, w);
    return answers;
  }

  const Lease& view(int r) const { return views_[static_cast<std::size_t>(r)]; }

  // Every rank holds the same lease, and the lease's holders count says so.
  void check_views_equal() const {
    for (int r = 1; r < node_.ranks(); ++r) {
      INFO("rank " << r << " against rank 0");
      CHECK(view(r) == view(0));
    }
  }

  void drop() {
    for (Lease& l : views_) let_go(node_.pool(), l);
  }

 private:
  Node& node_;
  LeaseKind kind_;
  std::unique_ptr<LeaseLine> line_;
  std::vector<char> acks_;
  std::vector<Lease> views_;
};

void check_all(const std::vector<LeaseAnswer>& answers, LeaseAnswer expected) {
  for (std::size_t r = 0; r < answers.size(); ++r) {
    INFO("rank " << r);
    CHECK(answers[r] == expected);
  }
}

constexpr std::uint64_t kPoolBytes = 64 * NodePool::kPage;

}  // namespace

TEST_CASE("lease states: empty, grown, shrunk, exhausted, fallen back, recovered, given back", "[lease]") {
  for (int ranks : {2, 3, 5, 8}) {
    INFO(ranks << " ranks");
    Node node(ranks, kPoolBytes);
    node.note_empty();
    {
      Communicator ring(node, LeaseKind::ring);
      // Empty: nothing held before the first operation that needs cells.
      CHECK_FALSE(ring.view(0).held());

      // Grown from empty: 8 cells of 1 KiB.
      check_all(ring.ask_all({8, 1024}), LeaseAnswer::held);
      ring.check_views_equal();
      CHECK(ring.view(0).shape[0] == 8);
      CHECK(ring.view(0).shape[1] == 1024);
      const std::uint64_t small = ring.view(0).bytes;
      CHECK(node.pool().leased_bytes() == node.empty_bytes() + small);

      // Held: a smaller wish changes nothing, not even the generation.
      const std::uint64_t generation = ring.view(0).generation;
      check_all(ring.ask_all({4, 512}), LeaseAnswer::held);
      CHECK(ring.view(0).generation == generation);

      // Grown: 16 cells of 1 KiB; the old lease goes back to the pool.
      check_all(ring.ask_all({16, 1024}), LeaseAnswer::held);
      ring.check_views_equal();
      CHECK(ring.view(0).shape[0] == 16);
      CHECK(ring.view(0).generation == generation + 1);
      const std::uint64_t grown = ring.view(0).bytes;
      CHECK(node.pool().leased_bytes() == node.empty_bytes() + grown);

      // Shrunk: a hog leaves room for 4 cells of 2 KiB but not for 16 of them (the larger of
      // what is held and what is wished); the lease becomes what the operation needs.
      const std::uint64_t hog_bytes = kPoolBytes - node.pool().leased_bytes() - 4 * NodePool::kPage;
      const std::uint64_t hog = node.pool().lease(hog_bytes, 0, {});
      REQUIRE(hog != NodePool::kNoSpace);
      check_all(ring.ask_all({2, 2048}), LeaseAnswer::held);
      ring.check_views_equal();
      CHECK(ring.view(0).shape[0] == 2);
      CHECK(ring.view(0).shape[1] == 2048);
      CHECK(node.pool().leased_bytes() == node.empty_bytes() + hog_bytes + ring.view(0).bytes);

      // Exhausted: no room for what the operation needs; every rank keeps what it holds.
      const Lease before = ring.view(0);
      check_all(ring.ask_all({64, 8192}), LeaseAnswer::held);
      ring.check_views_equal();
      CHECK(ring.view(0).offset == before.offset);
      CHECK(ring.view(0).shape[0] == before.shape[0]);
      CHECK(ring.view(0).generation == before.generation + 1);

      // Fallen back: a new communicator holds nothing and the pool has no room for it.
      Communicator staging(node, LeaseKind::staging);
      check_all(staging.ask_all({64 * 1024, 0}), LeaseAnswer::none);
      staging.check_views_equal();
      CHECK_FALSE(staging.view(0).held());

      // Recovered: once the hog is gone, the next operation that needs more gets it.
      node.pool().release(hog, hog_bytes);
      check_all(staging.ask_all({4096, 0}), LeaseAnswer::held);
      staging.check_views_equal();
      CHECK(staging.view(0).shape[0] == 4096);
      check_all(ring.ask_all({16, 2048}), LeaseAnswer::held);
      ring.check_views_equal();
      CHECK(ring.view(0).shape[0] == 16);
      CHECK(ring.view(0).shape[1] == 2048);
    }
    // Given back: both communicators freed, the pool holds nothing but its header.
    CHECK(node.pool().leased_bytes() == node.empty_bytes());
  }
}

TEST_CASE("the leader waits for every rank's acknowledgement before it rewrites the line", "[lease]") {
  Node node(3, kPoolBytes);
  node.note_empty();
  Communicator c(node, LeaseKind::staging);
  // Operation 1 grows the lease; rank 2 has not come to it yet (an alltoall of count 0 moved
  // nothing, so nobody waited for it).
  CHECK(c.ask(0, {1024, 0}) == LeaseAnswer::held);
  CHECK(c.ask(1, {1024, 0}) == LeaseAnswer::held);
  // Operation 2 grows it again: the leader may not answer before rank 2 has read operation 1's.
  CHECK(c.ask(0, {8192, 0}) == LeaseAnswer::pending);
  CHECK(c.ask(1, {8192, 0}) == LeaseAnswer::pending);
  CHECK(c.ask(2, {1024, 0}) == LeaseAnswer::held);
  CHECK(c.view(2) == c.view(1));
  CHECK(c.ask(0, {8192, 0}) == LeaseAnswer::held);
  CHECK(c.ask(1, {8192, 0}) == LeaseAnswer::held);
  CHECK(c.ask(2, {8192, 0}) == LeaseAnswer::held);
  c.check_views_equal();
  CHECK(c.view(0).shape[0] == 8192);
  // The first lease went back to the pool once the last rank moved on.
  CHECK(node.pool().leased_bytes() == node.empty_bytes() + c.view(0).bytes);
}

TEST_CASE("random interleavings: ranks lag by whole operations, every view agrees", "[lease]") {
  for (unsigned seed = 1; seed <= 40; ++seed) {
    std::mt19937 rng(seed);
    const int ranks = 2 + static_cast<int>(rng() % 7);
    const LeaseKind kind = seed % 2 ? LeaseKind::ring : LeaseKind::staging;
    // A pool so small that growth is often refused: every state comes up.
    Node node(ranks, (8 + rng() % 56) * NodePool::kPage);
    node.note_empty();
    INFO("seed " << seed << ", " << ranks << " ranks, " << (kind == LeaseKind::ring ? "ring" : "staging"));
    {
      Communicator c(node, kind);
      std::vector<Wish> ops;
      for (int i = 0; i < 60; ++i) {
        const std::uint64_t w0 = kind == LeaseKind::ring ? 1 + rng() % 32 : (rng() % 4 ? 1 + rng() % 40000 : 0);
        const std::uint64_t w1 = kind == LeaseKind::ring ? 64u << (rng() % 8) : 0;
        ops.push_back({w0, w1});
      }
      // What each rank answered and held after each operation.
      std::vector<std::vector<std::pair<LeaseAnswer, Lease>>> seen(static_cast<std::size_t>(ranks));
      std::vector<std::size_t> next(static_cast<std::size_t>(ranks), 0);
      std::vector<std::uint64_t> hogs;
      // Bounded: a protocol that leaves a rank pending for good fails here instead of hanging.
      std::size_t finished = 0;
      for (long tries = 0; finished < static_cast<std::size_t>(ranks) && tries < 1000000; ++tries) {
        // Now and then another communicator takes or gives back pool space.
        if (rng() % 16 == 0) {
          if (!hogs.empty() && rng() % 2) {
            node.pool().release(hogs.back(), NodePool::kPage);
            hogs.pop_back();
          } else if (const std::uint64_t h = node.pool().lease(NodePool::kPage, 0, {}); h != NodePool::kNoSpace) {
            hogs.push_back(h);
          }
        }
        const int r = static_cast<int>(rng() % static_cast<unsigned>(ranks));
        std::size_t& i = next[static_cast<std::size_t>(r)];
        if (i == ops.size()) continue;
        const Lease before = c.view(r);
        const LeaseAnswer a = c.ask(r, ops[i]);
        if (a == LeaseAnswer::pending) continue;
        seen[static_cast<std::size_t>(r)].push_back({a, c.view(r)});
        // Held: at least what the operation needs, or, the pool being full, what was held.
        const bool enough = c.view(r).shape[0] >= ops[i].want0 && c.view(r).shape[1] >= ops[i].want1;
        const bool kept = c.view(r).offset == before.offset && c.view(r).generation == before.generation + 1;
        if (a == LeaseAnswer::held) CHECK((enough || kept));
        if (a == LeaseAnswer::none) CHECK_FALSE(c.view(r).held());
        if (++i == ops.size()) ++finished;
      }
      REQUIRE(finished == static_cast<std::size_t>(ranks));
      for (std::size_t op = 0; op < ops.size(); ++op)
        for (int r = 1; r < ranks; ++r) {
          INFO("operation " << op << ", rank " << r << " against rank 0");
          CHECK(seen[static_cast<std::size_t>(r)][op].first == seen[0][op].first);
          CHECK(seen[static_cast<std::size_t>(r)][op].second == seen[0][op].second);
        }
      for (std::uint64_t h : hogs) node.pool().release(h, NodePool::kPage);
    }
    CHECK(node.pool().leased_bytes() == node.empty_bytes());
  }
}
