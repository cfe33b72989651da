#include "node/node_setup.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "common/log.hpp"
#include "decisions/config.hpp"
#include "node/lease_protocol.hpp"
#include "node/node_pool_share.hpp"
#include "node/node_shm.hpp"
#include "node/single_copy.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {

std::size_t staging_area_bytes(const Config& config) {
  return static_cast<std::size_t>((config.alltoall_stage_bytes + 4095) / 4096 * 4096);
}

std::size_t reduce_staging_area_bytes(const Config& config) {
  return static_cast<std::size_t>((config.reduce_stage_bytes + 4095) / 4096 * 4096);
}

LeaderNews leader_news(const Config& config, const std::vector<int>& numa_os, const SegmentExtras& extras,
                       NodePool** pool) {
  LeaderNews mine;
  int error = 0;
  mine.pool = own_pool_address(config.pool_max_bytes);
  *pool = pool_at(mine.pool, &error);
  if (*pool) mine.segment = NodeShm::lease_carved(**pool, numa_os, extras);
  mine.probe = reinterpret_cast<std::uintptr_t>(single_copy_probe());
  static const long pid = static_cast<long>(getpid());  // a system call each time otherwise
  mine.pid = pid;
  return mine;
}

bool copy_refused(const LeaderNews& news) {
  return !can_read_probe(static_cast<pid_t>(news.pid), reinterpret_cast<const void*>(news.probe));
}

void announce_bell(CommContext& ctx) {
  if (!ctx.channel.shm->has_private_pool())
    ctx.channel.shm->bell_slot(ctx.node_rank).store(static_cast<std::uint64_t>(own_bell_slot(&ctx.channel.shm->pool()) + 1),
                                                    std::memory_order_release);
}

namespace {

// The segment carved out of the node's pool, and single copy probed, in two collectives: the
// leaders' news to every rank, then every rank's verdict to every rank. Every rank returns the
// same: carved; no room in some node's pool (*pool: this rank's node pool); or no pool on some
// node (*pool null). Nothing is left leased unless carved.
enum class Carving { carved, no_room, no_pool };
Carving carve_segment(CommContext& ctx, const Config& config, const SegmentExtras& extras, NodePool** pool) {
  const bool leading = ctx.node_rank == 0;
  allow_single_copy_readers();
  LeaderNews mine;
  int error = 0;
  *pool = nullptr;
  if (leading) mine = leader_news(config, ctx.node_numa_os, extras, pool);
  std::vector<LeaderNews> all(static_cast<std::size_t>(ctx.size));
  PMPI_Allgather(&mine, sizeof(mine), MPI_BYTE, all.data(), sizeof(mine), MPI_BYTE, ctx.comm);
  const LeaderNews& news = all[static_cast<std::size_t>(ctx.node_leader())];
  if (!leading) *pool = pool_at(news.pool, &error);
  const int no_room = !error && news.segment == NodePool::kNoSpace;
  const int refused = leading || error ? 0 : copy_refused(news);
  const int verdict[3] = {error, no_room, refused};
  int worst[3] = {0, 0, 0};
  PMPI_Allreduce(verdict, worst, 3, MPI_INT, MPI_MAX, ctx.comm);
  if (worst[0] || worst[1]) {
    if (leading && *pool && mine.segment != NodePool::kNoSpace)
      NodeShm::unlease_carved(**pool, mine.segment, ctx.node_size, extras);
    if (worst[0]) {
      *pool = nullptr;
      if (config.verbose >= 1 && ctx.rank == 0)
        say_once("no-node-pool", std::string("no node pool (") + std::strerror(worst[0]) +
                                     "); each communicator gets a private pool in its segment");
      return Carving::no_pool;
    }
    return Carving::no_room;
  }
  ctx.channel.shm = NodeShm::carved(**pool, news.segment, ctx.node_size, extras);
  ctx.channel.single_copy = worst[2] ? 0 : 1;
  if (!ctx.channel.single_copy && config.verbose >= 1 && ctx.rank == 0)
    say_once("no-single-copy", "single copy (Cross Memory Attach) is refused on this node; "
                               "large messages take copy-in/copy-out");
  return Carving::carved;
}

// A segment of the communicator's own (memfd, or POSIX shared memory), leasing from `pool`, or
// with a private pool at its end where there is none. Collective.
bool own_segment(CommContext& ctx, const Config& config, SegmentExtras extras, NodePool* pool) {
  std::string why;
  if (!pool)
    extras.private_pool_bytes = private_pool_bytes(config.ring_cells, config.ring_cell_bytes,
                                                   staging_area_bytes(config), ctx.node_size);
  ctx.channel.shm = NodeShm::create(ctx.comm, ctx.node_leader(), ctx.node_numa_os, extras, pool, config.segment, &why);
  if (!ctx.channel.shm) {
    // Every rank of the communicator agrees (NodeShm::create): PMPI from here on.
    ctx.channel.shm_failed = true;
    if (ctx.rank == 0)  // one warning for the job, not one per rank
      say_once("shm-failed", "warning: " + why + "; collectives on this communicator go to the MPI library");
    return false;
  }
  // The single-copy probe now, while collectives may wait: non-blocking calls need its answer
  // and may not make it.
  single_copy_allowed(ctx, config);
  if (!why.empty() && config.verbose >= 1 && ctx.rank == 0) say_once("segment-fallback", why);
  return true;
}

}  // namespace

SegmentExtras segment_extras(const CommContext& ctx, const Config& config) {
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
  return extras;
}

bool ensure_shm(CommContext& ctx, const Config& config) {
  if (ctx.channel.shm) return true;
  if (ctx.channel.shm_failed) return false;
  const SegmentExtras extras = segment_extras(ctx, config);
  // The segment from the node's pool, which also holds the ring cells and staging areas; where
  // the pool is full, a segment of its own that leases from the pool; where no pool can be had
  // (memfd or /proc refused, POSIX segments asked for), one with a private pool (the memory of
  // before).
  NodePool* pool = nullptr;
  if (config.segment == SegmentKind::posix || carve_segment(ctx, config, extras, &pool) != Carving::carved) {
    if (!own_segment(ctx, config, extras, pool)) return false;
  }
  announce_bell(ctx);
  return true;
}

bool single_copy_allowed(CommContext& ctx, const Config& config) {
  if (ctx.channel.single_copy < 0) {
    ctx.channel.single_copy = probe_single_copy(ctx.comm, ctx.node_leader()) ? 1 : 0;
    if (!ctx.channel.single_copy && config.verbose >= 1 && ctx.rank == 0)
      say_once("no-single-copy", "single copy (Cross Memory Attach) is refused on this node; "
                                 "large messages take copy-in/copy-out");
  }
  return ctx.channel.single_copy == 1;
}

}  // namespace mcorecoll
