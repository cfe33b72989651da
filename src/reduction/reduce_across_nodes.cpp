#include "reduction/reduce_across_nodes.hpp"

#include <cstdint>
#include <vector>

#include "bcast/bcast_shm.hpp"
#include "progress/leader_messages.hpp"
#include "common/message_bytes.hpp"
#include "reduction/fold.hpp"
#include "reduction/reduce_shm.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {
namespace {

// Phase 1: this node's ranks folded in rank order into `partial` at the node leader.
int fold_node(CommContext& ctx, const Config& config, const void* mine, char* partial, int count, MPI_Datatype type,
              MPI_Op op, const ElementLayout& layout) {
  ReduceRounds rounds(ctx, config, mine, partial, count, type, op, /*node rank*/ 0, layout);
  run_to_end(rounds, ctx, config);
  // The extent is at most a line (the caller checks), and every staging half holds one.
  return rounds.too_small() ? MPI_ERR_INTERN : rounds.rc;
}

// Phase 2, at node leaders: the nodes' partials combined in node order into `partial` (on every
// leader for allreduce, `root_node`'s for reduce).
int combine_nodes(CommContext& ctx, char* partial, int count, MPI_Datatype type, MPI_Op op, int root_node,
                  const ElementLayout& layout) {
  const int nodes = ctx.node_count;
  const std::size_t block = static_cast<std::size_t>(count) * layout.extent;
  const bool gets_result = root_node < 0 || ctx.node_index == root_node;
  // Alike on every leader: the same count, datatype and number of nodes.
  if (block * static_cast<std::size_t>(nodes) > kGatherFoldBytes) {
    if (root_node < 0) return PMPI_Allreduce(MPI_IN_PLACE, partial, count, type, op, ctx.leaders_comm);
    // Not in place: MPICH 4.0.2's MPI_Reduce in place at a root other than 0 crashes above 2 KiB.
    const std::size_t image = layout.image_bytes(static_cast<std::size_t>(count));
    char* result = gets_result ? scratch_room(ctx.reduce_gathered, image) : nullptr;
    int rc = PMPI_Reduce(partial, result, count, type, op, root_node, ctx.leaders_comm);
    if (rc == MPI_SUCCESS && gets_result)
      rc = deliver(result, partial, count, layout, type, ctx.comm, ctx.reduce_packed);
    return rc;
  }
  char* gathered = gets_result ? scratch_room(ctx.reduce_gathered, block * static_cast<std::size_t>(nodes)) : nullptr;
  int rc;
  if (nodes <= kDirectExchangeMaxNodes) {
    // One message from each leader to each that folds (leader_messages.hpp): one network
    // latency, where the MPI library's allgather of a few ranks takes rounds.
    LeaderMessages direct;
    post_partials(direct, ctx, partial, gathered, count, type, layout, root_node);
    rc = direct.wait();
  } else {
    rc = root_node < 0 ? PMPI_Allgather(partial, count, type, gathered, count, type, ctx.leaders_comm)
                       : PMPI_Gather(partial, count, type, gathered, count, type, root_node, ctx.leaders_comm);
  }
  if (rc != MPI_SUCCESS || !gets_result) return rc;
  // Node j's partial sits at j x block (the gathered blocks are images); this node's is
  // `partial` itself when the leaders exchanged directly.
  const bool own_apart = nodes <= kDirectExchangeMaxNodes;
  char* acc = scratch_room(ctx.reduce_scratch, layout.image_bytes(static_cast<std::size_t>(count)));
  rc = fold(nodes, count, layout, type, op, acc, [&](int j) {
    return own_apart && j == ctx.node_index ? partial : gathered + static_cast<std::size_t>(j) * block;
  });
  if (rc == MPI_SUCCESS) rc = deliver(acc, partial, count, layout, type, ctx.comm, ctx.reduce_packed);
  return rc;
}

}  // namespace

void post_partials(LeaderMessages& messages, const CommContext& ctx, const char* partial, char* gathered, int count,
                   MPI_Datatype type, const ElementLayout& layout, int root_node) {
  const std::size_t block = static_cast<std::size_t>(count) * layout.extent;
  const bool folds = root_node < 0 || ctx.node_index == root_node;
  for (int j = 0; j < ctx.node_count; ++j) {
    if (j == ctx.node_index) continue;
    if (folds) messages.receive(gathered + static_cast<std::size_t>(j) * block, count, type, j, ctx.leaders_comm);
    if (root_node < 0 || j == root_node) messages.send(partial, count, type, j, ctx.leaders_comm);
  }
}

int reduce_across_nodes(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf, int count,
                        MPI_Datatype type, MPI_Op op, int root, const ElementLayout& layout,
                        std::uint64_t bytes) {
  if (count == 0) return MPI_SUCCESS;
  const bool gets_result = root < 0 || ctx.rank == root;
  const int root_node = root < 0 ? -1 : ctx.places[static_cast<std::size_t>(root)].node;
  const bool leader = ctx.node_rank == 0;
  const void* mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  const std::size_t image = layout.image_bytes(static_cast<std::size_t>(count));
  // A leader's partial goes where its result will be: its receive buffer when the result is
  // its own, else scratch (a reduce's non-root receive buffer is not ours to write).
  char* partial = nullptr;
  if (leader) partial = gets_result ? static_cast<char*>(recvbuf) : scratch_room(ctx.reduce_partial, image);
  int rc = fold_node(ctx, config, mine, partial, count, type, op, layout);
  // After an error the later phases still run, so that no rank waits for ever; the error is
  // returned where it happened.
  if (leader) {
    const int combined = combine_nodes(ctx, partial, count, type, op, root_node, layout);
    if (rc == MPI_SUCCESS) rc = combined;
  }
  // Phase 3: the leader hands the result to its node (for reduce, to the root; the root's
  // node-mates read it into scratch, their receive buffers not being significant).
  if (root >= 0 && (ctx.node_index != root_node || ctx.places[static_cast<std::size_t>(root)].node_rank == 0))
    return rc;
  char* target = gets_result ? static_cast<char*>(recvbuf) : leader ? partial : scratch_room(ctx.reduce_partial, image);
  MessageBytes result(target, count, type, bytes);
  if (leader) result.pack();
  node_bcast_bytes(ctx, config, result.data(), bytes, 0);
  if (!leader) result.unpack();
  return rc;
}

}  // namespace mcorecoll
