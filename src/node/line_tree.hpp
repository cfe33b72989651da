// The shape of the small reductions' tree over a node's consecutive ranks
// (reduction/reduce_shm.hpp): at the level of span s (1, radix, radix^2, ...), node rank r leads
// while r % (s x radix) == 0 and s < n, and then reads parts r + j s, j = 1 .. radix - 1, below
// n. Pure, so that its counts are unit-tested for node sizes no machine here has
// (test/unit/test_line_tree.cpp).
#pragma once

namespace mcorecoll {

struct LineTree {
  int n = 1;      // ranks on the node
  int radix = 2;  // MCORECOLL_REDUCE_TREE_RADIX

  // Whether `rank` leads a group at the level of `span`.
  bool leads(int rank, int span) const { return span < n && rank % (span * radix) == 0; }
  // The parts `rank` folds at that level, its own partial first: 1 + its children there.
  int parts(int rank, int span) const {
    int p = 1;
    while (p < radix && rank + p * span < n) ++p;
    return p;
  }
  // Records read on the critical path of an allreduce (`allreduce`) or a reduce to node rank
  // 0: node rank 0's children at every level, then one read of its result by the others.
  int path_reads(bool allreduce) const {
    int reads = 0;
    for (int span = 1; leads(0, span); span *= radix) reads += parts(0, span) - 1;
    return reads + (allreduce && n > 1 ? 1 : 0);
  }
};

}  // namespace mcorecoll
