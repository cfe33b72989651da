#include "lanes/bcast_lanes.hpp"

#include <cstring>
#include <vector>

#include "common/message_bytes.hpp"
#include "common/scratch_room.hpp"
#include "lanes/lanes.hpp"
#include "node/comm_context.hpp"
#include "node/ring_steps.hpp"
#include "node/transfer_count.hpp"
#include "node/wait.hpp"

namespace mcorecoll {
namespace {

// Kept on the communicator: the slices, where they do not fill the message's own bytes exactly.
struct BcastLanesRooms {
  std::vector<char> slices;
};

}  // namespace

int bcast_lanes(CommContext& ctx, const Config& config, void* buffer, int count, MPI_Datatype type, int root,
                std::uint64_t bytes) {
  if (bytes == 0) return MPI_SUCCESS;
  const RankPlace& at = ctx.places[static_cast<std::size_t>(root)];
  const bool root_node = ctx.node_index == at.node;
  const int n = ctx.node_size;
  const Slice part = slice_of(bytes, n, ctx.node_rank);
  MessageBytes message(buffer, count, type, bytes);
  if (ctx.rank == root) message.pack();
  // The slices, padded to n equal ones: the message's own bytes where they fill them exactly.
  const bool exact = part.per * static_cast<std::uint64_t>(n) == bytes;
  char* all = exact ? message.data()
                    : scratch_room(ctx.kept.get<BcastLanesRooms>().slices, part.per * static_cast<std::uint64_t>(n));
  if (!exact && ctx.rank == root) std::memcpy(all, message.data(), bytes);
  char* own = all + part.per * static_cast<std::uint64_t>(ctx.node_rank);  // this rank's slot
  // 1. The whole message to the root's node.
  if (root_node && n > 1) {
    Waiter waiter = Waiter::for_context(ctx, config);
    NodeRingSteps ring(ctx, config, &waiter);
    run_rounds(waiter, [&] {
      int waiting_on = -1;
      return ring.step(all, bytes, at.node_rank, &waiting_on);
    }, [&] { return ring.moves(); });
  }
  // 2. Each slice from the root's node on its lane (its rank there: the node's index). Every
  // rank asks for the lanes, those without a slice too: their first making is collective.
  const MPI_Comm lanes = lanes_of(ctx);
  int rc = MPI_SUCCESS;
  if (part.count > 0) {
    count_network(MCORECOLL_NETWORK_LANE, -1, root_node ? part.count : 0);
    rc = PMPI_Bcast(own, static_cast<int>(part.count), MPI_BYTE, at.node, lanes);
  }
  // 3. Every slice to every rank of the other nodes.
  if (!root_node && n > 1) gather_slices(ctx, config, own, all, part.per);
  if (ctx.rank != root) {
    if (!exact) std::memcpy(message.data(), all, bytes);
    message.unpack();
  }
  return rc;
}

}  // namespace mcorecoll
