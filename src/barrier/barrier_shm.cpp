#include "barrier/barrier_shm.hpp"

#include "decisions/config.hpp"
#include "node/node_shm.hpp"
#include "progress/leader_messages.hpp"
#include "node/wait.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {
namespace {

// The barrier, carrying `mine` as node_vote() says; *any: the OR of the node's bits (across
// nodes the bits stay inside each node). Returns an MPI error code.
int barrier_carrying(CommContext& ctx, const Config& config, bool mine, bool* any) {
  NodeShm& shm = *ctx.shm;
  const std::uint64_t seq = ++ctx.seq;
  const std::uint64_t turn = ++ctx.barriers;
  Waiter waiter = Waiter::for_context(ctx, config);
  std::uint64_t bit = mine ? 1 : 0;

  // Few ranks, one node: every rank posts its arrival and polls everyone else's. One line
  // transfer of latency instead of two (gather, then release), for n - 1 reads per rank.
  if (ctx.node_count == 1 && ctx.node_size <= config.barrier_all_poll_max) {
    shm.arrive_vote(ctx.node_rank, turn).store(bit, std::memory_order_relaxed);
    shm.arrive(ctx.node_rank).store(seq, std::memory_order_release);
    for (int r = 1; r < ctx.node_size; ++r) {
      const int peer = (ctx.node_rank + r) % ctx.node_size;
      waiter.wait_for(shm.arrive(peer), seq);
      bit |= shm.arrive_vote(peer, turn).load(std::memory_order_relaxed);
    }
    *any = bit != 0;
    return MPI_SUCCESS;
  }

  for (int child : ctx.tree_children) {
    waiter.wait_for(shm.arrive(child), seq);
    bit |= shm.arrive_vote(child, turn).load(std::memory_order_relaxed);
  }
  int rc = MPI_SUCCESS;
  if (ctx.node_rank != 0) {
    shm.arrive_vote(ctx.node_rank, turn).store(bit, std::memory_order_relaxed);
    shm.arrive(ctx.node_rank).store(seq, std::memory_order_release);
    waiter.wait_for(shm.release(ctx.tree_parent), seq);
    bit = shm.release_vote(ctx.tree_parent, turn).load(std::memory_order_relaxed);
  } else if (ctx.node_count > 1) {
    if (ctx.node_count <= kDirectExchangeMaxNodes) {
      LeaderMessages direct;  // one network latency (leader_messages.hpp)
      direct.post_barrier(ctx.node_index, ctx.node_count, ctx.leaders_comm);
      rc = direct.wait();
    } else {
      rc = PMPI_Barrier(ctx.leaders_comm);
    }
  }
  if (!ctx.tree_children.empty()) {
    shm.release_vote(ctx.node_rank, turn).store(bit, std::memory_order_relaxed);
    shm.release(ctx.node_rank).store(seq, std::memory_order_release);
  }
  *any = bit != 0;
  return rc;
}

}  // namespace

int barrier_shm(CommContext& ctx, const Config& config) {
  bool any = false;
  return barrier_carrying(ctx, config, false, &any);
}

bool node_vote(CommContext& ctx, const Config& config, bool mine) {
  bool any = mine;
  barrier_carrying(ctx, config, mine, &any);
  return any;
}

}  // namespace mcorecoll
