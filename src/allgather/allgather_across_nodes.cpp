#include "allgather/allgather_across_nodes.hpp"

#include <cstring>
#include <vector>

#include "allgather/allgather_bytes.hpp"
#include "allgather/allgather_shm.hpp"
#include "bcast/bcast_shm.hpp"
#include "common/scratch_room.hpp"
#include "progress/leader_messages.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {

NodeOrder::NodeOrder(const CommContext& ctx, std::uint64_t block) {
  const std::size_t nodes = static_cast<std::size_t>(ctx.node_count);
  first.assign(nodes + 1, 0);
  counts.resize(nodes);
  displs.resize(nodes);
  for (std::size_t k = 0; k < nodes; ++k) {
    first[k + 1] = first[k] + static_cast<int>(ctx.node_members[k].size());
    counts[k] = static_cast<int>(ctx.node_members[k].size() * block);
    displs[k] = static_cast<int>(static_cast<std::size_t>(first[k]) * block);
  }
}

void NodeOrder::place_by_rank(const CommContext& ctx, const char* all, char* recv, std::uint64_t block) const {
  for (std::size_t r = 0; r < static_cast<std::size_t>(ctx.size); ++r) {
    const RankPlace& p = ctx.places[r];
    const std::size_t at = static_cast<std::size_t>(first[static_cast<std::size_t>(p.node)] + p.node_rank);
    std::memcpy(recv + r * block, all + at * block, block);
  }
}

void post_node_blocks(LeaderMessages& messages, const CommContext& ctx, char* all, const NodeOrder& order) {
  const std::size_t me = static_cast<std::size_t>(ctx.node_index);
  for (std::size_t k = 0; k < order.counts.size(); ++k) {
    if (k == me) continue;
    messages.receive(all + order.displs[k], order.counts[k], MPI_BYTE, static_cast<int>(k), ctx.leaders_comm);
    messages.send(all + order.displs[me], order.counts[me], MPI_BYTE, static_cast<int>(k), ctx.leaders_comm);
  }
}

int allgather_across_nodes(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount,
                           MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                           std::uint64_t block) {
  if (block == 0) return MPI_SUCCESS;
  AllgatherBytes sides(ctx, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, block);
  sides.pack();
  const std::size_t n = static_cast<std::size_t>(ctx.size);
  // Every block in (node, node rank) order: straight into the receive bytes when that is rank
  // order, else into scratch (the leader's part of it is also its send buffer in phase 2).
  char* all = ctx.nodes_in_rank_order ? sides.recv.data() : scratch_room(ctx.allgather_nodes, n * block);
  const NodeOrder order(ctx, block);
  char* mine = all + static_cast<std::size_t>(order.first[static_cast<std::size_t>(ctx.node_index)]) * block;

  // Phase 1: this node's blocks, in node-rank order, on every rank of the node.
  allgather_node_bytes(ctx, config, sides.out(), mine, block);

  // Phase 2: the leaders swap their nodes' blocks. Bytes: the blocks are the signature's bytes
  // already. Above INT_MAX bytes the caller sent the call to PMPI.
  int rc = MPI_SUCCESS;
  if (ctx.node_rank == 0) {
    if (ctx.node_count <= kDirectExchangeMaxNodes) {
      LeaderMessages direct;
      post_node_blocks(direct, ctx, all, order);
      rc = direct.wait();
    } else {
      rc = PMPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, order.counts.data(), order.displs.data(),
                           MPI_BYTE, ctx.leaders_comm);
    }
  }
  // Phase 3: the leader's view to its node (also after an error, so that no rank waits for
  // ever), then each block to its rank's place.
  node_bcast_bytes(ctx, config, all, n * block, 0);
  if (!ctx.nodes_in_rank_order) order.place_by_rank(ctx, all, sides.recv.data(), block);
  sides.recv.unpack();
  return rc;
}

}  // namespace mcorecoll
