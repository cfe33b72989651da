#include "gather/gatherv_across_nodes.hpp"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <optional>

#include "common/scratch_room.hpp"
#include "exchange/staged_exchange.hpp"
#include "gather/gather_across_nodes.hpp"
#include "gather/gather_shm.hpp"
#include "node/comm_context.hpp"
#include "node/node_order.hpp"
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

GathervSizes agree_gatherv_sizes(CommContext& ctx, const Config& config, int root, std::uint64_t header, int* rc) {
  GathervSizes s;
  *rc = MPI_SUCCESS;
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
      std::uint64_t mine[2] = {0, 0};  // the node's bytes, its largest block (the root's: its largest)
      for (int r = 0; r < ctx.node_size; ++r) {
        const std::uint64_t h = r == 0 ? header : sizes.header(r);
        mine[1] = std::max(mine[1], h);
        if (ctx.node_index == at.node && r == at.node_rank) continue;
        s.node_blocks[static_cast<std::size_t>(r)] = h;
        mine[0] += h;
      }
      std::vector<std::uint64_t> all(2 * static_cast<std::size_t>(ctx.node_count));
      count_network(MCORECOLL_NETWORK_ALLGATHERV, -1, sizeof mine);
      *rc = PMPI_Allgather(mine, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, ctx.leaders_comm);
      s.totals.resize(static_cast<std::size_t>(ctx.node_count));
      for (std::size_t k = 0; k < s.totals.size(); ++k) {
        answer.largest = std::max(answer.largest, all[2 * k + 1]);
        answer.total += all[2 * k];
        s.totals[k] = static_cast<int>(std::min<std::uint64_t>(all[2 * k], INT_MAX));
      }
      // The leaders' PMPI_Gatherv counts in ints; a failed exchange leaves it to the MPI library.
      if (answer.total > static_cast<std::uint64_t>(INT_MAX) || *rc != MPI_SUCCESS) answer.largest = kNotOurs;
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

int gatherv_across_nodes(CommContext& ctx, const Config& config, int root, const GathervSizes& sizes,
                         const char* own, std::uint64_t own_size, BlockBytes* recv, const char* mine,
                         std::uint64_t mine_size) {
  const RankPlace& at = ctx.places[static_cast<std::size_t>(root)];
  const bool leader = ctx.node_rank == 0, root_node = ctx.node_index == at.node, is_root = ctx.rank == root;
  // The blocking gather's room (a blocking call runs after the communicator's operations).
  GatherRooms& rooms = ctx.kept.get<GatherRooms>();
  int rc = MPI_SUCCESS;
  char* all = nullptr;
  if (sizes.largest > 0) {
    // 3. The node's blocks at its leader, in node-rank order (the root's node's in place in the
    // whole, where the leaders' gatherv puts the other nodes' around them).
    std::vector<int> node_displs;
    std::optional<BlockBytes> gathered;
    std::vector<int> counts, displs;
    if (leader) {
      node_displs.assign(sizes.totals.size(), 0);
      for (std::size_t k = 1; k < node_displs.size(); ++k) node_displs[k] = node_displs[k - 1] + sizes.totals[k - 1];
      const std::size_t me = static_cast<std::size_t>(ctx.node_index);
      char* node = nullptr;
      if (root_node) {
        all = scratch_room(rooms.all, std::max<std::uint64_t>(sizes.total, 1));
        node = all + node_displs[me];
      } else {
        node = scratch_room(rooms.node, std::max(sizes.totals[me], 1));
      }
      int offset = 0;
      for (const std::uint64_t b : sizes.node_blocks) {
        counts.push_back(static_cast<int>(b));
        displs.push_back(offset);
        offset += static_cast<int>(b);
      }
      gathered.emplace(node, ctx.node_size, counts.data(), displs.data(), MPI_BYTE);
      if (!is_root) copy_bytes(node, own, std::min(own_size, sizes.node_blocks[0]));
    }
    static const char kNothing = 0;  // what the root gives: its block stays with it
    ExchangeRounds node = gather_rounds(ctx, config, /*node rank*/ 0, sizes.largest, is_root || !own ? &kNothing : own,
                                        is_root || !own ? 0 : own_size, gathered ? &*gathered : nullptr);
    run_to_end(node, ctx, config);
    // 4. One message a node to the root's node's leader.
    if (leader) {
      const std::size_t me = static_cast<std::size_t>(ctx.node_index);
      const void* send = root_node ? MPI_IN_PLACE : gathered->data(0);
      count_network(MCORECOLL_NETWORK_GATHERV, -1, root_node ? 0 : static_cast<std::uint64_t>(sizes.totals[me]));
      rc = PMPI_Gatherv(send, sizes.totals[me], MPI_BYTE, all, sizes.totals.data(), node_displs.data(), MPI_BYTE,
                        at.node, ctx.leaders_comm);
    }
    // 5. On the root's node, the whole from its leader to the root where the root is not it.
    if (root_node && at.node_rank != 0 && sizes.total > 0) {
      if (is_root) all = scratch_room(rooms.all, std::max<std::uint64_t>(sizes.total, 1));
      ExchangeRounds hand = hand_over_rounds(ctx, config, /*from*/ 0, /*to*/ at.node_rank, all, sizes.total);
      run_to_end(hand, ctx, config);
    }
  }
  if (!is_root) return rc;
  // The root: each block from node order to its place by rank, its own from `mine`.
  std::vector<std::uint64_t> blocks = recv->sizes();
  blocks[static_cast<std::size_t>(root)] = 0;
  const NodeOrderBytes order(ctx, blocks);
  // (Blocks past the whole: a program whose ranks disagree with the root on their sizes, which
  // the MPI library would not judge alike either; nothing is read past what arrived.)
  for (int r = 0; r < ctx.size && all; ++r) {
    const std::size_t i = static_cast<std::size_t>(r);
    if (r != root && order.at[i] + blocks[i] <= sizes.total) copy_bytes(recv->data(r), all + order.at[i], blocks[i]);
  }
  if (mine) copy_bytes(recv->data(root), mine, std::min(mine_size, recv->size(root)));
  recv->unpack_all_but(mine ? -1 : root);
  return rc;
}

}  // namespace mcorecoll
