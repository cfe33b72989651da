#include "gather/gatherv_across_nodes.hpp"

#include <mpi.h>

#include <algorithm>
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
int gatherv_across_nodes(CommContext& ctx, const Config& config, int root, const RootedSizes& sizes,
                         const char* own, std::uint64_t own_size, BlockBytes* recv, const char* mine,
                         std::uint64_t mine_size) {
  const RankPlace& at = ctx.places[static_cast<std::size_t>(root)];
  const bool leader = ctx.node_rank == 0, root_node = ctx.node_index == at.node, is_root = ctx.rank == root;
  // The blocking gather's room (a blocking call runs after the communicator's operations).
  GatherRooms& rooms = ctx.kept.get<GatherRooms>();
  int rc = MPI_SUCCESS;
  char* all = nullptr;
  if (sizes.largest > 0) {
    // 1. The node's blocks at its leader, in node-rank order (the root's node's in place in the
    // whole, where the leaders' gatherv puts the other nodes' around them).
    std::optional<BlockBytes> gathered;
    std::vector<int> counts, displs;
    if (leader) {
      const std::size_t me = static_cast<std::size_t>(ctx.node_index);
      char* node = nullptr;
      if (root_node) {
        all = scratch_room(rooms.all, std::max<std::uint64_t>(sizes.total, 1));
        node = all + sizes.displs[me];
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
    // 2. One message a node to the root's node's leader.
    if (leader) {
      const std::size_t me = static_cast<std::size_t>(ctx.node_index);
      const void* send = root_node ? MPI_IN_PLACE : gathered->data(0);
      count_network(MCORECOLL_NETWORK_GATHERV, -1, root_node ? 0 : static_cast<std::uint64_t>(sizes.totals[me]));
      rc = PMPI_Gatherv(send, sizes.totals[me], MPI_BYTE, all, sizes.totals.data(), sizes.displs.data(), MPI_BYTE,
                        at.node, ctx.leaders_comm);
    }
    // 3. On the root's node, the whole from its leader to the root where the root is not it.
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
