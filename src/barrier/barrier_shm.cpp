#include "barrier/barrier_shm.hpp"

#include "decisions/config.hpp"
#include "node/node_shm.hpp"
#include "progress/leader_messages.hpp"
#include "node/wait.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {

int barrier_shm(CommContext& ctx, const Config& config) {
  NodeShm& shm = *ctx.shm;
  const std::uint64_t seq = ++ctx.seq;
  Waiter waiter = Waiter::for_context(ctx, config);

  // Few ranks, one node: every rank posts its arrival and polls everyone else's. One line
  // transfer of latency instead of two (gather, then release), for n - 1 reads per rank.
  if (ctx.node_count == 1 && ctx.node_size <= config.barrier_all_poll_max) {
    shm.arrive(ctx.node_rank).store(seq, std::memory_order_release);
    for (int r = 1; r < ctx.node_size; ++r)
      waiter.wait_for(shm.arrive((ctx.node_rank + r) % ctx.node_size), seq);
    return MPI_SUCCESS;
  }

  for (int child : ctx.tree_children) waiter.wait_for(shm.arrive(child), seq);
  int rc = MPI_SUCCESS;
  if (ctx.node_rank != 0) {
    shm.arrive(ctx.node_rank).store(seq, std::memory_order_release);
    waiter.wait_for(shm.release(ctx.tree_parent), seq);
  } else if (ctx.node_count > 1) {
    if (ctx.node_count <= kDirectExchangeMaxNodes) {
      LeaderMessages direct;  // one network latency (leader_messages.hpp)
      direct.post_barrier(ctx.node_index, ctx.node_count, ctx.leaders_comm);
      rc = direct.wait();
    } else {
      rc = PMPI_Barrier(ctx.leaders_comm);
    }
  }
  if (!ctx.tree_children.empty()) shm.release(ctx.node_rank).store(seq, std::memory_order_release);
  return rc;
}

}  // namespace mcorecoll
