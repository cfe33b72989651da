#include "lanes/reduce_scatter_lanes.hpp"

#include <cstring>
#include <vector>

#include "common/scratch_room.hpp"
#include "lanes/lanes.hpp"
#include "node/comm_context.hpp"
#include "node/transfer_count.hpp"
#include "reduction/reduce_shm.hpp"

namespace mcorecoll {
namespace {

// Kept on the communicator: the vector in lane order, this rank's lane's partial, and the
// offsets and counts that put it in that order.
struct ReduceScatterLanesRooms {
  std::vector<char> ordered, partial;
  std::vector<std::size_t> displs;  // each rank's block in the vector, elements
  std::vector<int> lane_counts;     // this rank's lane's blocks, in node order
};

}  // namespace

int reduce_scatter_lanes(CommContext& ctx, const Config& config, const void* input, void* recvbuf, int total,
                         const int* counts, int count, MPI_Datatype type, MPI_Op op, const ElementLayout& layout) {
  const int n = ctx.node_size, nodes = ctx.node_count, me = ctx.node_rank;
  auto count_of = [&](int rank) { return counts ? counts[rank] : count; };
  ReduceScatterLanesRooms& rooms = ctx.kept.get<ReduceScatterLanesRooms>();
  rooms.displs.resize(static_cast<std::size_t>(ctx.size));
  std::size_t at = 0;
  for (int r = 0; r < ctx.size; ++r) rooms.displs[static_cast<std::size_t>(r)] = at, at += static_cast<std::size_t>(count_of(r));
  // The vector in lane order: node rank 0's blocks of every node, then node rank 1's, ...; this
  // rank's lane from element `first`, `mine` of them.
  const std::size_t e = layout.extent;
  char* ordered = scratch_room(rooms.ordered, static_cast<std::size_t>(total) * e);
  const char* from = static_cast<const char*>(input);
  std::size_t to = 0, first = 0;
  int mine = 0;
  rooms.lane_counts.assign(static_cast<std::size_t>(nodes), 0);
  for (int j = 0; j < n; ++j) {
    if (j == me) first = to;
    for (int i = 0; i < nodes; ++i) {
      const int r = ctx.node_members[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
      const std::size_t elements = static_cast<std::size_t>(count_of(r));
      std::memcpy(ordered + to * e, from + rooms.displs[static_cast<std::size_t>(r)] * e, elements * e);
      to += elements;
      if (j == me) rooms.lane_counts[static_cast<std::size_t>(i)] = count_of(r), mine += count_of(r);
    }
  }
  // 1. This rank's lane's blocks of the node's partial.
  char* partial = scratch_room(rooms.partial, static_cast<std::size_t>(mine) * e);
  ReduceRounds node(ctx, config, ordered, partial, total, type, op, ScatterBlock{static_cast<int>(first), mine, layout},
                    layout);
  run_to_end(node, ctx, config);
  // Areas too small for one element are decided per node: an error, with the lane's call still
  // made, so that every rank makes the same calls (as reduce_lanes.cpp).
  int rc = node.too_small() ? MPI_ERR_INTERN : node.rc;
  // 2. Across the nodes on its lane (its rank there: its node's index), its own block's total.
  count_network_elements(MCORECOLL_NETWORK_LANE, -1, mine, type);
  const MPI_Comm lanes = lanes_of(ctx);
  const int across = counts ? PMPI_Reduce_scatter(partial, recvbuf, rooms.lane_counts.data(), type, op, lanes)
                            : PMPI_Reduce_scatter_block(partial, recvbuf, count, type, op, lanes);
  return rc == MPI_SUCCESS ? across : rc;
}

}  // namespace mcorecoll
