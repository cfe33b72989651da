// The small calls' trees (node/line_tree.hpp), counted for node sizes no machine here has. The
// reductions': every rank's record is read by exactly one leader, each leader's parts cover
// consecutive ranks in order, and the records read on the critical path grow with log n. The
// scans': every prefix made of consecutive blocks, and log2 n reads and hand-offs.
#include "catch.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "node/line_tree.hpp"

using mcorecoll::LineTree;
using mcorecoll::LineGroups;

namespace {

int ceil_sqrt(int n) {
  int s = 0;
  while (s * s < n) ++s;
  return s;
}

int ceil_log(int n, int radix) {
  int levels = 0;
  for (long long span = 1; span < n; span *= radix) ++levels;
  return levels;
}

}  // namespace

TEST_CASE("line tree: every record read once, by a leader before it, in rank order", "[line_tree]") {
  for (int radix = 2; radix <= 9; ++radix)
    for (int n = 1; n <= 300; ++n) {
      INFO("n " << n << " radix " << radix);
      const LineTree tree{n, radix};
      std::vector<int> readers(static_cast<std::size_t>(n), 0);
      for (int r = 0; r < n; ++r) {
        int covered = 1;  // ranks [r, r + covered) folded so far
        for (int span = 1; tree.leads(r, span); span *= radix) {
          REQUIRE(covered == std::min(span, n - r));
          for (int j = 1; j < tree.parts(r, span); ++j) {
            const int child = r + j * span;
            REQUIRE(child < n);
            ++readers[static_cast<std::size_t>(child)];
            // The child's partial covers [child, child + span): it stopped leading at this level.
            CHECK_FALSE(tree.leads(child, span));
            CHECK(child == r + covered);
            covered += std::min(span, n - child);
          }
        }
        if (r == 0) CHECK(covered == n);  // node rank 0 holds every rank's
      }
      CHECK(readers[0] == 0);
      for (int r = 1; r < n; ++r) CHECK(readers[static_cast<std::size_t>(r)] == 1);
    }
}

TEST_CASE("line tree: records read on the critical path grow with log n", "[line_tree]") {
  for (int radix = 2; radix <= 64; radix *= 2)
    for (int n = 2; n <= 4096; n *= 2) {
      INFO("n " << n << " radix " << radix);
      const LineTree tree{n, radix};
      CHECK(tree.path_reads(true) <= (radix - 1) * ceil_log(n, radix) + 1);
      CHECK(tree.path_reads(false) == tree.path_reads(true) - 1);
    }
  // The default radix (4) on 32, 64 and 128 ranks, as doc/design/reductions.md and
  // doc/node-model.md count them, against a flat fold's n - 1: within the 2 log2 n
  // (10, 12, 14). Radix 8 would read 11 at 32 ranks.
  CHECK(LineTree{32, 4}.path_reads(true) == 8);
  CHECK(LineTree{64, 4}.path_reads(true) == 10);
  CHECK(LineTree{128, 4}.path_reads(true) == 11);
  CHECK(LineTree{32, 8}.path_reads(true) == 11);
  CHECK(LineTree{32, 2}.path_reads(true) <= 2 * 5);
}

namespace {

using mcorecoll::PrefixBlocks;

// The small scans' counts (PrefixBlocks) on n ranks, as a run would make them with every rank
// reading the records it needs nearest first: the longest chain of line hand-offs (a read
// costs one after the later of the reader's clock and the record's post), and the most
// records one rank reads. The same for scan and exscan: an exscan reads the same blocks.
struct ScanCounts {
  int path = 0, reads = 0;
};
ScanCounts scan_counts(int n) {
  std::vector<int> posted(static_cast<std::size_t>(n), 0);
  ScanCounts counts;
  for (int i = 0; i < n; ++i) {
    int t = 0, reads = 0;
    for (int d = 1; d < PrefixBlocks::block_size(i); d *= 2, ++reads)
      t = std::max(t, posted[static_cast<std::size_t>(i - d)]) + 1;
    posted[static_cast<std::size_t>(i)] = t;
    for (int q = PrefixBlocks::before(i); q >= 0; q = PrefixBlocks::before(q), ++reads)
      t = std::max(t, posted[static_cast<std::size_t>(q)]) + 1;
    counts.path = std::max(counts.path, t);
    counts.reads = std::max(counts.reads, reads);
  }
  return counts;
}

}  // namespace

TEST_CASE("prefix blocks: each rank's block is its parts, consecutive and in rank order", "[line_tree]") {
  // Rank i's block [i + 1 - size, i] must be its own rank and the blocks of i - d, d = 1, 2,
  // 4, ... < size, each ending where the nearer one starts: then every prefix, made of the
  // blocks of i, before(i), ... (before(q) = the rank just below q's block), is consecutive too.
  for (int n = 1; n <= 1100; ++n) {
    INFO("n " << n);
    for (int i = 0; i < n; ++i) {
      const int size = PrefixBlocks::block_size(i);
      REQUIRE(size >= 1);
      REQUIRE(i + 1 - size >= 0);
      int first = i;  // the block so far: [first, i]
      for (int d = 1; d < size; d *= 2) {
        const int part = i - d;
        CHECK(part == first - 1);  // ends just before what is folded so far
        first = part + 1 - PrefixBlocks::block_size(part);
      }
      CHECK(first == i + 1 - size);
      CHECK(PrefixBlocks::before(i) == first - 1);
    }
  }
}

TEST_CASE("prefix blocks: the critical path and every rank's reads grow with log2 n", "[line_tree]") {
  for (int n = 2; n <= 4096; ++n) {
    INFO("n " << n);
    const ScanCounts counts = scan_counts(n);
    CHECK(counts.path <= ceil_log(n, 2) + 1);
    CHECK(counts.reads <= 2 * ceil_log(n, 2));
  }
  // 32 ranks: the bound is 2 log2 n = 10; a flat scan's last rank reads 31.
  CHECK(scan_counts(32).path == 5);
  CHECK(scan_counts(128).path == 7);
}

TEST_CASE("line groups: every rank in one group, each group one line, reads near 2 sqrt(n)", "[line_tree]") {
  for (int n = 1; n <= 4096; ++n) {
    for (std::size_t block : {std::size_t{1}, std::size_t{8}, std::size_t{31}, std::size_t{124}, std::size_t{125}}) {
      INFO("n " << n << " block " << block);
      const LineGroups g = LineGroups::of(n, block, 248);
      REQUIRE(g.size >= 1);
      CHECK((g.size & (g.size - 1)) == 0);
      CHECK(static_cast<std::size_t>(g.size) * block <= 248);
      CHECK(g.size * g.size <= n);
      // The groups tile the ranks: each rank's leader leads a group that holds it.
      int covered = 0;
      bool leaders_lead = true;
      for (int lead = 0; lead < n; lead += g.size) {
        leaders_lead = leaders_lead && g.leader(lead) == lead && g.members(lead) >= 1;
        covered += g.members(lead);
      }
      CHECK(leaders_lead);
      CHECK(covered == n);
      CHECK(g.count() * g.size >= n);
      bool in_its_group = true;
      for (int r = 0; r < n; ++r) in_its_group = in_its_group && g.leader(r) <= r && r < g.leader(r) + g.members(g.leader(r));
      CHECK(in_its_group);
      // A block too large for two in a line, or too few ranks: no groups, every rank reads n - 1.
      if (block > 124 || n < 4) CHECK(g.size == 1);
      // As large as both bounds allow: a power of two up to sqrt(n), and blocks a line holds.
      CHECK((4 * g.size * g.size > n || static_cast<std::size_t>(2 * g.size) * block > 248));
      if (g.size > 1) {
        int most = 0;
        for (int r = 0; r < n; ++r) most = std::max(most, g.reads(r));
        CHECK(most < n - 1);
        if (block == 1) CHECK(most <= 3 * ceil_sqrt(n));
      }
    }
  }
  // 128 ranks of 8-byte blocks: groups of 8, a leader reads 7 + 15 lines, a member 16; flat: 127.
  const LineGroups g = LineGroups::of(128, 8, 248);
  CHECK(g.size == 8);
  CHECK(g.reads(0) == 22);
  CHECK(g.reads(1) == 16);
  CHECK(LineGroups::of(128, 32, 248).size == 4);
  CHECK(LineGroups::of(32, 8, 248).size == 4);
}
