#include "node/pool_lease.hpp"

#include "node/node_shm.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {

LeaseAnswer try_lease(CommContext& ctx, LeaseKind kind, std::uint64_t want0, std::uint64_t want1) {
  NodeShm& shm = *ctx.channel.shm;
  const int k = static_cast<int>(kind);
  const LeaseParty party = {&shm.pool(), &shm.lease_line(k), shm.lease_ack_base(k), kRankBlockBytes,
                            ctx.node_rank, ctx.node_size, kind, &ctx.node_numa_os};
  return ask_lease(party, ctx.channel.leases[k], want0, want1, &ctx.channel.lease_waits_for);
}

void drop_leases(CommContext& ctx) {
  if (!ctx.channel.shm) return;
  for (Lease& lease : ctx.channel.leases) let_go(ctx.channel.shm->pool(), lease);
}

}  // namespace mcorecoll
