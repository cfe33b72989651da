#include "allgather/allgather_across_nodes.hpp"

#include <cstring>
#include <vector>

#include "allgather/allgather_bytes.hpp"
#include "allgather/allgather_shm.hpp"
#include "bcast/bcast_shm.hpp"
#include "progress/leader_messages.hpp"
#include "reduction/fold.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {

void post_node_blocks(LeaderMessages& messages, const CommContext& ctx, char* all, const std::vector<int>& counts,
                      const std::vector<int>& displs) {
  const std::size_t me = static_cast<std::size_t>(ctx.node_index);
  for (std::size_t k = 0; k < counts.size(); ++k) {
    if (k == me) continue;
    messages.receive(all + displs[k], counts[k], MPI_BYTE, static_cast<int>(k), ctx.leaders_comm);
    messages.send(all + displs[me], counts[me], MPI_BYTE, static_cast<int>(k), ctx.leaders_comm);
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
  // Node k's blocks start after those of nodes 0..k-1.
  std::vector<int> first(static_cast<std::size_t>(ctx.node_count) + 1, 0);
  for (int k = 0; k < ctx.node_count; ++k)
    first[static_cast<std::size_t>(k) + 1] = first[static_cast<std::size_t>(k)] +
                                             static_cast<int>(ctx.node_members[static_cast<std::size_t>(k)].size());
  char* mine = all + static_cast<std::size_t>(first[static_cast<std::size_t>(ctx.node_index)]) * block;

  // Phase 1: this node's blocks, in node-rank order, on every rank of the node.
  allgather_node_bytes(ctx, config, sides.out(), mine, block);

  // Phase 2: the leaders swap their nodes' blocks. The counts are alike on every leader (the
  // node sizes and the block, which every rank's receive side gives). Bytes: the blocks are
  // the signature's bytes already. Above INT_MAX bytes the caller sent the call to PMPI.
  int rc = MPI_SUCCESS;
  if (ctx.node_rank == 0) {
    std::vector<int> counts(static_cast<std::size_t>(ctx.node_count)), displs(counts.size());
    for (std::size_t k = 0; k < counts.size(); ++k) {
      counts[k] = static_cast<int>(ctx.node_members[k].size() * block);
      displs[k] = static_cast<int>(static_cast<std::size_t>(first[k]) * block);
    }
    if (ctx.node_count <= kDirectExchangeMaxNodes) {
      LeaderMessages direct;
      post_node_blocks(direct, ctx, all, counts, displs);
      rc = direct.wait();
    } else {
      rc = PMPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, counts.data(), displs.data(), MPI_BYTE,
                           ctx.leaders_comm);
    }
  }
  // Phase 3: the leader's view to its node (also after an error, so that no rank waits for
  // ever), then each block to its rank's place.
  node_bcast_bytes(ctx, config, all, n * block, 0);
  if (!ctx.nodes_in_rank_order) {
    char* recv = sides.recv.data();
    for (std::size_t r = 0; r < n; ++r) {
      const RankPlace& p = ctx.places[r];
      const std::size_t at = static_cast<std::size_t>(first[static_cast<std::size_t>(p.node)] + p.node_rank);
      std::memcpy(recv + r * block, all + at * block, block);
    }
  }
  sides.recv.unpack();
  return rc;
}

}  // namespace mcorecoll
