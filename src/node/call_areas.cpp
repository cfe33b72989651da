#include "node/call_areas.hpp"

#include <algorithm>
#include <string>

#include "common/log.hpp"
#include "decisions/config.hpp"
#include "node/node_setup.hpp"
#include "node/node_shm.hpp"
#include "node/pool_lease.hpp"
#include "node/wait.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {

constexpr std::uint64_t kWarmCells = 8;  // ring cells in use when every rank has a CPU (all slots are)

RingCells slot_cells(NodeShm& shm) { return {shm.slots(), kLineBytes, kSlotBytes, kSlots}; }

// Asks until the answer is there.
template <typename Areas, typename Try>
Areas waiting(Waiter& waiter, Try try_areas) {
  Areas areas{};
  for (unsigned polls = 0; !try_areas(&areas);) waiter.backoff(polls);
  return areas;
}

}  // namespace

bool try_ring_cells(CommContext& ctx, const Config& config, std::uint64_t size, RingCells* cells_out) {
  NodeShm& shm = *ctx.channel.shm;
  *cells_out = slot_cells(shm);
  if (size <= kSlotBytes) return true;
  // How far the source may run ahead, in cells. Measured (doc/performance.md): with a CPU per
  // rank, few cells keep the lines warm (many cost 2x at np 2); when ranks outnumber CPUs,
  // readers wait for a time slice and the source must not stall on them (many cells win 2-4x
  // at np 4 on 2 cores). Every rank of a node agrees on `oversubscribed`.
  const std::uint64_t window = ctx.oversubscribed ? static_cast<std::uint64_t>(config.ring_cells)
                                                  : std::min<std::uint64_t>(config.ring_cells, kWarmCells);
  const std::uint64_t cell = std::min<std::uint64_t>(config.ring_cell_bytes, (size + kLineBytes - 1) / kLineBytes * kLineBytes);
  // All of the warm cells even for a message of one chunk: the source may then run ahead of
  // its readers by several calls (one cell made every call wait for the readers' last: 2-3x at
  // 256 bytes-4 KiB, np 2); beyond them only as many as the message fills.
  const std::uint64_t cells = std::min(window, std::max(kWarmCells, (size + cell - 1) / cell));
  const LeaseAnswer answer = try_lease(ctx, LeaseKind::ring, cells, cell);
  if (answer == LeaseAnswer::pending) return false;
  if (answer == LeaseAnswer::held) {
    const Lease& lease = ctx.channel.leases[static_cast<int>(LeaseKind::ring)];
    *cells_out = {shm.pool().at(lease.offset), ring_stride(lease.shape[1]), lease.shape[1], lease.shape[0]};
  } else if (config.verbose >= 1 && ctx.rank == 0) {
    say_once("bcast-fallback-slots", "bcast: the node's buffer pool is full (MCORECOLL_POOL_MAX_BYTES): "
                                     "messages go through the one-line slots");
  }
  return true;
}

RingCells ring_cells(CommContext& ctx, const Config& config, Waiter& waiter, std::uint64_t size) {
  return waiting<RingCells>(waiter, [&](RingCells* c) { return try_ring_cells(ctx, config, size, c); });
}

namespace {

// Staging areas of `kind` leased from the node's pool, grown as the blocks need up to
// `max_area`, or the segment's fallback staging while the pool has no room.
bool try_pool_staging(CommContext& ctx, const Config& config, LeaseKind kind, std::uint64_t block,
                      std::uint64_t max_area, StagingAreas* areas) {
  NodeShm& shm = *ctx.channel.shm;
  // Two halves of a tile per node rank: the whole block, up to the configured area.
  const std::uint64_t page = NodePool::kPage;
  std::uint64_t area = 2 * static_cast<std::uint64_t>(ctx.node_size) * block;
  area = area >= page ? (area + page - 1) / page * page : (area + kLineBytes - 1) / kLineBytes * kLineBytes;
  area = std::min<std::uint64_t>(area, max_area);
  const LeaseAnswer answer = try_lease(ctx, kind, area, 0);
  if (answer == LeaseAnswer::pending) return false;
  const Lease& lease = ctx.channel.leases[static_cast<int>(kind)];
  if (answer == LeaseAnswer::held)
    *areas = {shm.pool().at(lease.offset), static_cast<std::size_t>(lease.shape[0])};
  else  // the pool has no room, and nothing is held: every node rank learnt it alike
    *areas = {shm.fallback_stage(0), fallback_stage_bytes(ctx.node_size)};
  if (answer == LeaseAnswer::none && config.verbose >= 1 && ctx.rank == 0) {
    const std::string who = kind == LeaseKind::staging ? "alltoall" : "allreduce and reduce";
    say_once(who + "-fallback-staging", who + ": the node's buffer pool is full (MCORECOLL_POOL_MAX_BYTES): "
                                              "staging through the segment's small fallback areas");
  }
  return true;
}

}  // namespace

bool try_staging_areas(CommContext& ctx, const Config& config, std::uint64_t block, StagingAreas* areas) {
  NodeShm& shm = *ctx.channel.shm;
  if (ctx.node_count > 1) {
    shm.note_fixed_staging_written();
    *areas = {shm.stage(0), shm.stage_bytes()};
    return true;
  }
  return try_node_staging_areas(ctx, config, block, areas);
}

bool try_node_staging_areas(CommContext& ctx, const Config& config, std::uint64_t block, StagingAreas* areas) {
  return try_pool_staging(ctx, config, LeaseKind::staging, block, staging_area_bytes(config), areas);
}

bool try_reduce_staging_areas(CommContext& ctx, const Config& config, std::uint64_t block, StagingAreas* areas) {
  // A communicator's private pool (no node pool) is sized for the alltoall's areas.
  const std::uint64_t max_area =
      ctx.channel.shm->has_private_pool() ? staging_area_bytes(config) : reduce_staging_area_bytes(config);
  return try_pool_staging(ctx, config, LeaseKind::reduce_staging, block, max_area, areas);
}

StagingAreas staging_areas(CommContext& ctx, const Config& config, Waiter& waiter, std::uint64_t block) {
  return waiting<StagingAreas>(waiter, [&](StagingAreas* a) { return try_staging_areas(ctx, config, block, a); });
}

}  // namespace mcorecoll
