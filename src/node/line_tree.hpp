// The shapes of the small calls' trees over a node's consecutive ranks, pure, so that their
// counts are unit-tested for node sizes no machine here has (test/unit/test_line_tree.cpp):
//  - LineTree, the small reductions' (reduction/reduce_shm.hpp): at the level of span s (1,
//    radix, radix^2, ...), node rank r leads while r % (s x radix) == 0 and s < n, and then
//    reads parts r + j s, j = 1 .. radix - 1, below n;
//  - PrefixBlocks, the small scans' (reduction/scan_lines.hpp): a binary indexed (Fenwick)
//    tree over the ranks;
//  - LineGroups, the small allgathers' (allgather/allgather_shm.hpp): groups of consecutive
//    ranks whose leaders gather their members' lines into one.
#pragma once

#include <cstddef>

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

// Node rank i posts its block: the fold of ranks [i + 1 - low(i + 1), i], low(j) being j's
// lowest set bit. It makes it from its own contribution and the blocks of ranks i - 1, i - 2,
// i - 4, ..., i - low(i + 1) / 2, which tile the rest. The prefix [0, e] is the fold of the
// blocks of e, e - low(e + 1), ... down to the one starting at rank 0. Each rank reads at most
// log2 n blocks for its own and log2 n for its prefix, and a block waits for a chain of at
// most log2 n others, not for every rank before it.
struct PrefixBlocks {
  static int low(int j) { return j & -j; }
  // How many ranks rank i's block covers; it folds in the blocks of ranks i - d, d = 1, 2, 4,
  // ... below that, nearest first.
  static int block_size(int i) { return low(i + 1); }
  // The rank whose block comes before that of rank q in a prefix (-1: q's starts at rank 0).
  static int before(int q) { return q - low(q + 1); }
};

// The node's ranks in groups of `size` consecutive ranks (the last may be smaller), led by
// each group's first. A rank reads its group's members' lines if it leads, then one line per
// group: size - 1 + n / size lines where every rank reading every line reads n - 1. The size is
// the largest power of two at most sqrt(n) (at 128 ranks a leader reads 7 + 15 lines, a member
// 16), so that groups stay inside caches shared by a power of two of cores, and at most the
// blocks a line holds.
struct LineGroups {
  int n = 1;     // ranks on the node
  int size = 1;  // ranks per group; 1: no groups

  static LineGroups of(int n, std::size_t block, std::size_t line_bytes) {
    LineGroups g{n, 1};
    while (2 * g.size * 2 * g.size <= n && 2 * g.size * block <= line_bytes) g.size *= 2;
    return g;
  }
  int leader(int rank) const { return rank - rank % size; }
  int count() const { return (n + size - 1) / size; }
  // Ranks in the group that `leader` leads.
  int members(int leader) const { return leader + size <= n ? size : n - leader; }
  // Lines a rank reads: its members' if it leads, and every group's line but its own (its own
  // group's blocks it has then; a member reads its leader's too).
  int reads(int rank) const {
    if (size == 1) return n - 1;
    return leader(rank) == rank ? members(rank) - 1 + count() - 1 : count();
  }
};

}  // namespace mcorecoll

