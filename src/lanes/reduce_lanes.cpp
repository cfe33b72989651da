#include "lanes/reduce_lanes.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "common/scratch_room.hpp"
#include "lanes/lanes.hpp"
#include "node/comm_context.hpp"
#include "node/transfer_count.hpp"
#include "reduction/reduce_shm.hpp"
#include "reduction/reduction_checks.hpp"

namespace mcorecoll {
namespace {

// Kept on the communicator: every slice, in vector order (each rank's own slice reduced into
// its place, then the others gathered around it), where the slices are not put straight into
// the receive buffer; and a reduce's slice at its lane's root.
struct LanesRooms {
  std::vector<char> slices, reduced;
};

}  // namespace

const char* reduction_lanes_refusal(const CommContext& ctx, MPI_Op op, const ElementLayout& layout, bool blocking) {
  if (const char* refusal = lanes_refusal(ctx, blocking)) return refusal;
  if (!layout.contiguous || layout.data_begin != 0) return "lanes: a datatype with gaps";
  if (!ctx.nodes_in_rank_order && !commutative(op))
    return "lanes: across nodes whose ranks are not consecutive, with an op that is not commutative";
  return nullptr;
}

int reduce_lanes(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf, int count,
                 MPI_Datatype type, MPI_Op op, int root, const ElementLayout& layout) {
  if (count == 0) return MPI_SUCCESS;
  const int n = ctx.node_size, me = ctx.node_rank;
  const int root_node = root < 0 ? -1 : ctx.places[static_cast<std::size_t>(root)].node;
  const bool gets_result = root < 0 || ctx.rank == root;
  const bool node_gets_result = root < 0 || ctx.node_index == root_node;
  const Slice part = slice_of(static_cast<std::uint64_t>(count), n, me);
  const int per = static_cast<int>(part.per), first = static_cast<int>(part.first), mine = static_cast<int>(part.count);
  const std::size_t slice = static_cast<std::size_t>(per) * layout.extent;
  // Slices that fill the receive buffer exactly are put there: each rank's own reduced into its
  // place (with MPI_IN_PLACE, where those elements were, staged already), the others gathered
  // around it. Else in room, copied at the end.
  LanesRooms& rooms = ctx.kept.get<LanesRooms>();
  const bool exact = gets_result && count % n == 0;
  char* slices = exact ? static_cast<char*>(recvbuf) : scratch_room(rooms.slices, slice * static_cast<std::size_t>(n));
  char* own = slices + slice * static_cast<std::size_t>(me);
  const void* input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  // 1. Slice `me` of the node's partial.
  ReduceRounds node(ctx, config, input, own, count, type, op, ScatterBlock{first, mine, layout}, layout);
  run_to_end(node, ctx, config);
  // Areas too small for one element are decided per node (each node's pool): an error, with the
  // phases still run, so that every rank makes the same calls (the 128-byte elements that
  // across_nodes_refusal() lets through fit in the smallest area).
  int rc = node.too_small() ? MPI_ERR_INTERN : node.rc;
  // 2. Across the nodes on its lane (equal on the lane: one node rank, one slice). Its rank in
  // the lane is its node's index. A reduce's result lands in room at the lane's root, not in
  // place: MPICH 4.0.2's MPI_Reduce in place at a root other than 0 crashes above 2 KiB.
  const MPI_Comm lanes = lanes_of(ctx);  // by every rank: its first making is collective
  if (mine > 0) {
    int across = MPI_SUCCESS;
    const std::size_t bytes = static_cast<std::size_t>(mine) * layout.extent;
    if (root < 0) {
      count_network_elements(MCORECOLL_NETWORK_LANE, -1, mine, type);
      across = PMPI_Allreduce(MPI_IN_PLACE, own, mine, type, op, lanes);
    } else {
      count_network_elements(MCORECOLL_NETWORK_LANE, -1, node_gets_result ? 0 : mine, type);
      char* reduced = node_gets_result ? scratch_room(rooms.reduced, bytes) : nullptr;
      across = PMPI_Reduce(own, reduced, mine, type, op, root_node, lanes);
      if (node_gets_result && across == MPI_SUCCESS) std::memcpy(own, reduced, bytes);
    }
    if (rc == MPI_SUCCESS) rc = across;
  }
  if (!node_gets_result) return rc;
  // 3. Every slice to every rank of the node, then the vector into the receive buffer.
  gather_slices(ctx, config, own, slices, slice);
  if (gets_result && !exact) std::memcpy(recvbuf, slices, layout.image_bytes(static_cast<std::size_t>(count)));
  return rc;
}

}  // namespace mcorecoll
