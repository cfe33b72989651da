#include "lanes/allreduce_lanes.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "allgather/allgather_shm.hpp"
#include "common/scratch_room.hpp"
#include "node/comm_context.hpp"
#include "node/transfer_count.hpp"
#include "node/wait.hpp"
#include "reduction/reduce_shm.hpp"
#include "reduction/reduction_checks.hpp"

namespace mcorecoll {
namespace {

// Kept on the communicator: every slice, in vector order (each rank's own slice reduced into
// its place, then the others gathered around it), where the slices overrun the receive buffer
// (the last one padded).
struct LanesRooms {
  std::vector<char> slices;
};

// The lanes' communicator, made by the first call that takes them: every rank of the
// communicator is in that call (a blocking collective, decided alike on every rank), and the
// set-up found that communicators may be made here.
MPI_Comm lanes_of(CommContext& ctx) {
  if (ctx.lanes_comm == MPI_COMM_NULL) PMPI_Comm_split(ctx.comm, ctx.node_rank, ctx.node_index, &ctx.lanes_comm);
  return ctx.lanes_comm;
}

}  // namespace

const char* lanes_refusal(const CommContext& ctx, MPI_Op op, const ElementLayout& layout, bool blocking) {
  if (ctx.node_count == 1) return "lanes: the communicator lies on one node";
  if (!blocking) return "lanes: the blocking form only in this version";
  if (ctx.max_node_size * ctx.node_count != ctx.size) return "lanes: nodes of different sizes";
  if (!layout.contiguous || layout.data_begin != 0) return "lanes: a datatype with gaps";
  if (!ctx.nodes_in_rank_order && !commutative(op))
    return "lanes: across nodes whose ranks are not consecutive, with an op that is not commutative";
  return nullptr;
}

int allreduce_lanes(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf, int count,
                    MPI_Datatype type, MPI_Op op, const ElementLayout& layout) {
  if (count == 0) return MPI_SUCCESS;
  const int n = ctx.node_size, me = ctx.node_rank;
  const int per = count / n + (count % n != 0);
  const int first = std::min(count, per * me), mine = std::min(per, count - first);
  const std::size_t slice = static_cast<std::size_t>(per) * layout.extent;
  // Slices that fill the receive buffer exactly are put there: each rank's own reduced into its
  // place (with MPI_IN_PLACE, where those elements were, staged already), the others gathered
  // around it. Else in room, copied at the end.
  const bool exact = count % n == 0;
  char* slices = exact ? static_cast<char*>(recvbuf)
                       : scratch_room(ctx.kept.get<LanesRooms>().slices, slice * static_cast<std::size_t>(n));
  char* own = slices + slice * static_cast<std::size_t>(me);
  const void* input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  // 1. Slice `me` of the node's partial.
  ReduceRounds node(ctx, config, input, own, count, type, op, ScatterBlock{first, mine, layout}, layout);
  run_to_end(node, ctx, config);
  if (node.too_small()) return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, ctx.comm);
  int rc = node.rc;
  // 2. Across the nodes on its lane (equal on the lane: one node rank, one slice).
  const MPI_Comm lanes = lanes_of(ctx);
  if (mine > 0) {
    count_network_elements(MCORECOLL_NETWORK_LANE, -1, mine, type);
    const int across = PMPI_Allreduce(MPI_IN_PLACE, own, mine, type, op, lanes);
    if (rc == MPI_SUCCESS) rc = across;
  }
  // 3. Every slice to every rank of the node, then the vector into the receive buffer.
  AllgatherRounds gather(ctx, config, own, slices, slice);
  Waiter waiter = Waiter::for_context(ctx, config);
  run_rounds(waiter, [&] {
    int waiting_on = -1;
    return gather.advance(&waiting_on);
  }, [&] { return gather.moves(); });
  if (!exact) std::memcpy(recvbuf, slices, layout.image_bytes(static_cast<std::size_t>(count)));
  return rc;
}

}  // namespace mcorecoll
