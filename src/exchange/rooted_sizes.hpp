// The rooted v-forms across nodes (MPI_Gatherv, MPI_Scatterv): only the root knows every
// block's size, so before any rank can route the call the ranks agree on them, in one round:
//  1. every rank posts its block's bytes on its node's header line (the root: the largest block
//     of the call, or kNotOurs where its arguments are the MPI library's to judge); each leader
//     reads its node's, adds them up, and the leaders exchange their nodes' totals and largest
//     (one PMPI_Allgather of 16 bytes a node);
//  2. each leader posts the call's largest block and the whole's bytes on a second line for its
//     node's ranks.
// Then every rank routes alike by the largest, and the leaders know every node's bytes: the
// counts of the leaders' PMPI_Gatherv or PMPI_Scatterv, one message a node. MPI_Gather and
// MPI_Scatter, whose blocks are equal, know the same from their arguments
// (equal_rooted_sizes()): one algorithm serves both shapes.
#pragma once

#include <cstdint>
#include <vector>

#include "exchange/staged_exchange.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// What the round gives: equal on every rank but the sizes, which only the leaders hold.
struct RootedSizes {
  std::uint64_t largest = 0;              // the call's largest block, or kNotOurs: every rank to PMPI
  std::uint64_t total = 0;                 // every node's bytes together (the root's own block not counted)
  std::vector<std::uint64_t> node_blocks;  // a leader's: its node's blocks by node rank (the root's 0)
  std::vector<int> totals;                 // a leader's: every node's bytes, by node
  std::vector<int> displs;                 // a leader's: where node k's bytes start in the whole

  // A leader's: its node's blocks by node rank as counts and displacements (the node phase's
  // layout).
  void node_layout(std::vector<int>* counts, std::vector<int>* displs) const;
};

// `header`: this rank's block's bytes (0 where its own arguments are invalid: it takes part with
// nothing), the root's the largest block of the call or kNotOurs. Collective over the
// communicator (its node lines, the leaders' communicator). A failed exchange among the leaders
// gives kNotOurs: every rank then calls the MPI library, which reports the failure.
RootedSizes agree_rooted_sizes(CommContext& ctx, const Config& config, int root, std::uint64_t header);

// The same for blocks of `block` bytes on every rank, without a round (O(nodes) on a leader).
RootedSizes equal_rooted_sizes(const CommContext& ctx, int root, std::uint64_t block);

}  // namespace mcorecoll
