#include "scatter/scatterv_across_nodes.hpp"

#include <mpi.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "common/scratch_room.hpp"
#include "exchange/staged_exchange.hpp"
#include "node/comm_context.hpp"
#include "node/node_order.hpp"
#include "node/transfer_count.hpp"
#include "scatter/scatter_across_nodes.hpp"
#include "scatter/scatter_shm.hpp"

namespace mcorecoll {

int scatterv_across_nodes(CommContext& ctx, const Config& config, int root, const RootedSizes& sizes,
                          BlockBytes* send, char* into, std::uint64_t into_size) {
  const RankPlace& at = ctx.places[static_cast<std::size_t>(root)];
  const bool leader = ctx.node_rank == 0, root_node = ctx.node_index == at.node, is_root = ctx.rank == root;
  if (is_root && into) copy_bytes(into, send->data(root), std::min(into_size, send->size(root)));
  // Every rank knows the whole's bytes: where only the root's own block has any, nothing moves.
  if (sizes.total == 0) return MPI_SUCCESS;
  // The blocking scatter's room (a blocking call runs after the communicator's operations).
  ScatterRooms& rooms = ctx.kept.get<ScatterRooms>();
  int rc = MPI_SUCCESS;
  char* all = nullptr;  // the root and its node's leader: every block but the root's, node order
  if (is_root) {
    std::vector<std::uint64_t> blocks = send->sizes();
    blocks[static_cast<std::size_t>(root)] = 0;
    const NodeOrderBytes order(ctx, blocks);
    // (A program whose ranks disagree with the root on their sizes, which the MPI library would
    // not judge alike either: the root lays out its own sizes and moves what the ranks agreed on.)
    all = scratch_room(rooms.all, std::max(order.total, sizes.total));
    for (int r = 0; r < ctx.size; ++r) {
      const std::size_t i = static_cast<std::size_t>(r);
      copy_bytes(all + order.at[i], send->data(r), blocks[i]);
    }
  }
  // 1. On the root's node, the whole from the root to its leader where the root is not it.
  if (root_node && at.node_rank != 0) {
    if (leader) all = scratch_room(rooms.all, sizes.total);
    ExchangeRounds hand = hand_over_rounds(ctx, config, /*from*/ at.node_rank, /*to*/ 0, all, sizes.total);
    run_to_end(hand, ctx, config);
  }
  // 2. One message a node from the root's node's leader (its own node's blocks stay in place).
  std::optional<BlockBytes> scattered;
  std::vector<int> counts, displs;
  if (leader) {
    const std::size_t me = static_cast<std::size_t>(ctx.node_index);
    char* node = root_node ? all + sizes.displs[me] : scratch_room(rooms.node, std::max(sizes.totals[me], 1));
    count_network(MCORECOLL_NETWORK_SCATTERV, -1,
                  root_node ? sizes.total - static_cast<std::uint64_t>(sizes.totals[me]) : 0);
    rc = PMPI_Scatterv(all, sizes.totals.data(), sizes.displs.data(), MPI_BYTE, root_node ? MPI_IN_PLACE : node,
                       sizes.totals[me], MPI_BYTE, at.node, ctx.leaders_comm);
    int offset = 0;
    for (const std::uint64_t b : sizes.node_blocks) {
      counts.push_back(static_cast<int>(b));
      displs.push_back(offset);
      offset += static_cast<int>(b);
    }
    scattered.emplace(node, ctx.node_size, counts.data(), displs.data(), MPI_BYTE);
  }
  // 3. The leader's blocks to its node's ranks in node-rank order; its own block to itself.
  static char nothing = 0;  // what the root takes: its block never left it
  const bool takes = !is_root && into;
  ExchangeRounds node = scatter_rounds(ctx, config, /*node rank*/ 0, sizes.largest, takes ? into : &nothing,
                                       takes ? into_size : 0, scattered ? &*scattered : nullptr);
  run_to_end(node, ctx, config);
  if (leader && takes) copy_bytes(into, scattered->data(0), std::min(into_size, sizes.node_blocks[0]));
  return rc;
}

}  // namespace mcorecoll
