// The small reductions' tree (node/line_tree.hpp), counted for node sizes no machine here has:
// every rank's record is read by exactly one leader, each leader's parts cover consecutive
// ranks in order, and the records read on the critical path grow with log n.
#include "catch.hpp"

#include <cmath>
#include <vector>

#include "node/line_tree.hpp"

using mcorecoll::LineTree;

namespace {

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
  // The defaults' (radix 8) on 32, 64 and 128 ranks, as doc/design/reductions.md and
  // doc/node-model.md count them, against a flat fold's n - 1.
  CHECK(LineTree{32, 8}.path_reads(true) == 11);
  CHECK(LineTree{64, 8}.path_reads(true) == 15);
  CHECK(LineTree{128, 8}.path_reads(true) == 16);
  // Radix 2 on 32 ranks: within 2 log2(n) hand-offs.
  CHECK(LineTree{32, 2}.path_reads(true) <= 2 * 5);
}
