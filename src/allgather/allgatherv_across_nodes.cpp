#include "allgather/allgatherv_across_nodes.hpp"

#include <algorithm>

#include "allgather/allgather_across_nodes.hpp"
#include "common/scratch_room.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {

AllgathervAcrossNodesRounds::AllgathervAcrossNodesRounds(CommContext& ctx, const Config& config, const char* own,
                                                         char* all, const NodeOrderBytes& order, bool blocking)
    : AcrossNodesPhases(ctx.node_rank == 0), ctx_(ctx), all_(all), order_(order), ring_(ctx, config),
      leaders_(leaders_direct(ctx, config), blocking) {
  if (order.total == 0) {
    nothing_to_do();
    return;
  }
  const std::size_t me = static_cast<std::size_t>(ctx.node_index);
  const std::vector<int>& members = ctx.node_members[me];
  // The node's largest block: equal on every rank of the node (every rank has every size).
  std::uint64_t largest = 0;
  for (const int r : members) largest = std::max(largest, order.sizes[static_cast<std::size_t>(r)]);
  const std::uint64_t own_size = order.sizes[static_cast<std::size_t>(ctx.rank)];
  // Phase 1, the exchange's gather to node rank 0: the others give their blocks, the leader
  // takes each straight to its place in `all`.
  ExchangeShape shape;
  shape.max_block = largest;
  shape.gives = !leader();
  if (leader()) {
    copy_bytes(all + order.at[static_cast<std::size_t>(ctx.rank)], own, own_size);
    for (int r = 1; r < ctx.node_size; ++r) shape.sources.push_back(r);
  }
  node_.emplace(
      ctx, config, std::move(shape),
      [own, own_size](char* tiles, std::uint64_t offset, std::uint64_t len) {
        copy_bytes(tiles, own + offset, clipped(own_size, offset, len));
      },
      [all, order = &order, members = &members](int r, const char* tiles, std::uint64_t offset, std::uint64_t len) {
        const std::size_t rank = static_cast<std::size_t>((*members)[static_cast<std::size_t>(r)]);
        copy_bytes(all + order->at[rank] + offset, tiles, clipped(order->sizes[rank], offset, len));
      });
}

// The leaders swap their nodes' bytes (leaders_allgather.hpp).
bool AllgathervAcrossNodesRounds::leaders_step() {
  int exchanged = MPI_SUCCESS;
  if (!leaders_.step(ctx_, all_, order_.counts, order_.displs, &exchanged)) return false;
  keep(exchanged);
  return true;
}

void place_by_rank(const CommContext& ctx, const NodeOrderBytes& order, const char* all, BlockBytes& recv, int skip) {
  for (int r = 0; r < ctx.size; ++r)
    if (r != skip) copy_bytes(recv.data(r), all + order.at[static_cast<std::size_t>(r)], recv.size(r));
}

int allgatherv_across_nodes(CommContext& ctx, const Config& config, const char* own, BlockBytes& recv) {
  const NodeOrderBytes order(ctx, recv.sizes());
  char* all = scratch_room(ctx.kept.get<AllgatherRooms>().in_node_order, order.total);
  AllgathervAcrossNodesRounds rounds(ctx, config, own, all, order, true);
  rounds.run_to_end(ctx, config);
  place_by_rank(ctx, order, all, recv, ctx.rank);  // this rank's own block: the caller's
  return rounds.rc;
}

}  // namespace mcorecoll
