#include "node/node_setup.hpp"

#include <string>

#include "common/log.hpp"
#include "decisions/config.hpp"
#include "node/lease_protocol.hpp"
#include "node/node_pool_share.hpp"
#include "node/node_shm.hpp"
#include "node/single_copy.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {

std::size_t staging_area_bytes(const Config& config) {
  return static_cast<std::size_t>((config.alltoall_stage_bytes + 4095) / 4096 * 4096);
}

std::size_t reduce_staging_area_bytes(const Config& config) {
  return static_cast<std::size_t>((config.reduce_stage_bytes + 4095) / 4096 * 4096);
}

bool ensure_shm(CommContext& ctx, const Config& config) {
  if (ctx.shm) return true;
  if (ctx.shm_failed) return false;
  std::string why;
  SegmentExtras extras;
  // A round's data from other nodes for every rank of this node: at most one half staging
  // area's worth per rank, double-buffered like the staging areas. Only where the leaders'
  // exchange can be taken at all (forced, or a bound above 0), with fixed staging areas: their
  // tiles must be alike on every node.
  const int alltoall_mode = config.forced_path[static_cast<int>(Collective::alltoall)];
  if (ctx.node_count > 1 && (alltoall_mode > 0 || (alltoall_mode < 0 && config.alltoall_nodes_max_bytes > 0))) {
    extras.stage_bytes = staging_area_bytes(config);
    extras.inbox_bytes = static_cast<std::size_t>(ctx.node_size) * extras.stage_bytes;
  }
  // Ring cells and staging areas come from the node's pool; where it cannot be had (memfd or
  // /proc refused), from a private one in the segment, large enough for the largest ring and
  // staging leases and a lease growing next to each (the memory of before, twice).
  NodePool* pool = nullptr;
  if (config.segment != SegmentKind::posix) {
    std::string pool_why;
    pool = share_node_pool(ctx.comm, ctx.node_leader(), config.pool_max_bytes, &pool_why);
    if (!pool && config.verbose >= 1 && ctx.rank == 0)
      say_once("no-node-pool", pool_why + "; each communicator gets a private pool in its segment");
  }
  if (!pool)
    extras.private_pool_bytes = private_pool_bytes(config.ring_cells, config.ring_cell_bytes,
                                                   staging_area_bytes(config), ctx.node_size);
  ctx.shm = NodeShm::create(ctx.comm, ctx.node_leader(), ctx.node_numa_os, extras, pool, config.segment, &why);
  if (ctx.shm) {
    // The single-copy probe now, while collectives may wait: non-blocking calls need its answer
    // and may not make it.
    single_copy_allowed(ctx, config);
    // Where this rank's progress helper can be woken (0: nowhere; the peers then do not ring).
    if (pool) ctx.shm->bell_slot(ctx.node_rank).store(static_cast<std::uint64_t>(own_bell_slot(pool) + 1),
                                                     std::memory_order_release);
    if (!why.empty() && config.verbose >= 1 && ctx.rank == 0) say_once("segment-fallback", why);
    return true;
  }
  // Every rank of the communicator agrees (NodeShm::create): PMPI from here on.
  ctx.shm_failed = true;
  if (ctx.rank == 0)  // one warning for the job, not one per rank
    say_once("shm-failed", "warning: " + why + "; collectives on this communicator go to the MPI library");
  return false;
}

bool single_copy_allowed(CommContext& ctx, const Config& config) {
  if (ctx.single_copy < 0) {
    ctx.single_copy = probe_single_copy(ctx.comm, ctx.node_leader()) ? 1 : 0;
    if (!ctx.single_copy && config.verbose >= 1 && ctx.rank == 0)
      say_once("no-single-copy", "single copy (Cross Memory Attach) is refused on this node; "
                                 "large messages take copy-in/copy-out");
  }
  return ctx.single_copy == 1;
}

}  // namespace mcorecoll
