#include "exchange/rooted_sizes.hpp"

#include <mpi.h>

#include <algorithm>
#include <climits>

#include "node/comm_context.hpp"
#include "node/transfer_count.hpp"
#include "node/wait.hpp"

namespace mcorecoll {
namespace {

// What a leader posts on its node's second line: the call's largest block, then the bytes of
// every node together (the root's node's hand-over needs them on every rank there).
struct Answer {
  std::uint64_t largest = 0, total = 0;
};

}  // namespace

RootedSizes agree_rooted_sizes(CommContext& ctx, const Config& config, int root, std::uint64_t header) {
  RootedSizes s;
  Waiter waiter = Waiter::for_context(ctx, config);
  const RankPlace& at = ctx.places[static_cast<std::size_t>(root)];
  auto nothing = [](char*, std::uint64_t, std::uint64_t) {};
  Answer answer;
  {
    HeaderLine sizes(ctx, waiter);
    sizes.post(header, false, 0, nothing);
    if (ctx.node_rank == 0) {
      // The node's blocks by node rank (the root's stays with it), their sum and largest.
      s.node_blocks.assign(static_cast<std::size_t>(ctx.node_size), 0);
      std::uint64_t mine[2] = {0, 0};  // the node's bytes, its largest block (the root's: the call's largest)
      for (int r = 0; r < ctx.node_size; ++r) {
        const std::uint64_t h = r == 0 ? header : sizes.header(r);
        mine[1] = std::max(mine[1], h);
        if (ctx.node_index == at.node && r == at.node_rank) continue;
        s.node_blocks[static_cast<std::size_t>(r)] = h;
        mine[0] += h;
      }
      std::vector<std::uint64_t> all(2 * static_cast<std::size_t>(ctx.node_count));
      count_network(MCORECOLL_NETWORK_ALLGATHERV, -1, sizeof mine);
      const int rc = PMPI_Allgather(mine, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, ctx.leaders_comm);
      s.totals.resize(static_cast<std::size_t>(ctx.node_count));
      s.displs.assign(s.totals.size(), 0);
      for (std::size_t k = 0; k < s.totals.size(); ++k) {
        answer.largest = std::max(answer.largest, all[2 * k + 1]);
        s.totals[k] = static_cast<int>(std::min<std::uint64_t>(all[2 * k], INT_MAX));
        s.displs[k] = static_cast<int>(std::min<std::uint64_t>(answer.total, INT_MAX));
        answer.total += all[2 * k];
      }
      // The leaders' collective counts in ints; a failed exchange leaves it to the MPI library.
      if (answer.total > static_cast<std::uint64_t>(INT_MAX) || rc != MPI_SUCCESS) answer.largest = kNotOurs;
    }
  }
  HeaderLine second(ctx, waiter);
  const bool leader = ctx.node_rank == 0;
  second.post(answer.largest, leader, sizeof answer, [&](char* to, std::uint64_t, std::uint64_t) {
    copy_bytes(to, &answer, sizeof answer);
  });
  if (!leader) {
    second.header(0);
    copy_bytes(&answer, second.data(0), sizeof answer);
  }
  s.largest = answer.largest;
  s.total = answer.total;
  return s;
}

void RootedSizes::node_layout(std::vector<int>* counts, std::vector<int>* node_displs) const {
  int offset = 0;
  for (const std::uint64_t b : node_blocks) {
    counts->push_back(static_cast<int>(b));
    node_displs->push_back(offset);
    offset += static_cast<int>(b);
  }
}

RootedSizes equal_rooted_sizes(const CommContext& ctx, int root, std::uint64_t block) {
  RootedSizes s;
  const RankPlace& at = ctx.places[static_cast<std::size_t>(root)];
  s.largest = block;
  s.total = static_cast<std::uint64_t>(ctx.size - 1) * block;
  if (ctx.node_rank != 0) return s;
  s.node_blocks.assign(static_cast<std::size_t>(ctx.node_size), block);
  if (ctx.node_index == at.node) s.node_blocks[static_cast<std::size_t>(at.node_rank)] = 0;
  s.totals.resize(static_cast<std::size_t>(ctx.node_count));
  s.displs.resize(s.totals.size());
  std::uint64_t offset = 0;
  for (std::size_t k = 0; k < s.totals.size(); ++k) {
    const std::uint64_t ranks = ctx.node_members[k].size() - (static_cast<int>(k) == at.node ? 1 : 0);
    s.totals[k] = static_cast<int>(ranks * block);
    s.displs[k] = static_cast<int>(offset);
    offset += ranks * block;
  }
  return s;
}

}  // namespace mcorecoll
