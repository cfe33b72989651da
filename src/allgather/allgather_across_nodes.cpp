#include "allgather/allgather_across_nodes.hpp"

#include <cstring>
#include <vector>

#include "allgather/allgather_bytes.hpp"
#include "common/scratch_room.hpp"
#include "node/wait.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {

AllgatherAcrossNodesRounds::AllgatherAcrossNodesRounds(CommContext& ctx, const Config& config, const char* out,
                                                       char* all, const NodeOrder& order, std::uint64_t block,
                                                       bool blocking)
    : AcrossNodesPhases(ctx.node_rank == 0), ctx_(ctx), all_(all), order_(order), block_(block),
      node_(ctx, config, out, all + static_cast<std::size_t>(order.first[static_cast<std::size_t>(ctx.node_index)]) * block,
            block),
      ring_(ctx, config), leaders_(leaders_direct(ctx, config), blocking) {
  if (block == 0) nothing_to_do();
}

// The leaders swap their nodes' blocks (leaders_allgather.hpp). Bytes: the blocks are the
// signature's bytes already (below INT_MAX in all: the caller checks).
bool AllgatherAcrossNodesRounds::leaders_step() {
  int exchanged = MPI_SUCCESS;
  if (!leaders_.step(ctx_, all_, order_.counts, order_.displs, &exchanged)) return false;
  keep(exchanged);
  return true;
}

int allgather_across_nodes(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount,
                           MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                           std::uint64_t block) {
  if (block == 0) return MPI_SUCCESS;
  AllgatherBytes sides(ctx, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, block);
  sides.pack();
  // Every block in (node, node rank) order: straight into the receive bytes when that is rank
  // order, else into scratch.
  char* all = ctx.nodes_in_rank_order ? sides.recv.data()
                                      : scratch_room(ctx.kept.get<AllgatherRooms>().in_node_order, static_cast<std::size_t>(ctx.size) * block);
  const NodeOrder order(ctx, block);
  AllgatherAcrossNodesRounds rounds(ctx, config, sides.out(), all, order, block, true);
  rounds.run_to_end(ctx, config);
  if (!ctx.nodes_in_rank_order) order.place_by_rank(ctx, all, sides.recv.data(), block);
  sides.recv.unpack();
  return rounds.rc;
}

}  // namespace mcorecoll
