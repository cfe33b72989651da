#include "bcast_ring.hpp"

#include <unistd.h>

#include <algorithm>

#include "comm_context.hpp"
#include "config.hpp"
#include "log.hpp"
#include "node_shm.hpp"
#include "pool_lease.hpp"
#include "single_copy.hpp"
#include "wait.hpp"

namespace mcorecoll {
namespace {

constexpr std::uint64_t kWarmCells = 8;  // ring cells in use when every rank has a CPU (all slots are)

RingCells slot_cells(NodeShm& shm) { return {shm.slots(), kLineBytes, kSlotBytes, kSlots}; }

}  // namespace

bool try_cells_for(CommContext& ctx, const Config& config, std::uint64_t size, RingCells* cells_out) {
  NodeShm& shm = *ctx.shm;
  *cells_out = slot_cells(shm);
  if (size <= kSlotBytes) return true;
  // How far the source may run ahead, in cells. Measured (README, "Performance"): with a CPU
  // per rank, few cells keep the lines warm (many cost 2x at np 2); when ranks outnumber CPUs,
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
    const Lease& lease = ctx.leases[static_cast<int>(LeaseKind::ring)];
    *cells_out = {shm.pool().at(lease.offset), ring_stride(lease.shape[1]), lease.shape[1], lease.shape[0]};
  } else if (config.verbose >= 1 && ctx.rank == 0) {
    say_once("bcast-fallback-slots", "bcast: the node's buffer pool is full (MCORECOLL_POOL_MAX_BYTES): "
                                     "messages go through the one-line slots");
  }
  return true;
}

RingCells cells_for(CommContext& ctx, const Config& config, Waiter& waiter, std::uint64_t size) {
  RingCells cells{};
  for (unsigned polls = 0; !try_cells_for(ctx, config, size, &cells);) waiter.backoff(polls);
  return cells;
}

const std::vector<int>& coarsest_leaders(const CommContext& ctx) {
  static const std::vector<int> flat;
  return ctx.hierarchy.leader.empty() ? flat : ctx.hierarchy.leader[0];
}

ReaderGroups groups_of_readers(const CommContext& ctx, const Config& config, int source) {
  return reader_groups(ctx.node_size, source, config.bcast_readers, coarsest_leaders(ctx));
}

void post_single_copy(NodeShm& shm, int source, const char* data, std::uint64_t size, std::uint64_t seq) {
  std::atomic<std::uint64_t>* posted = shm.posted(source);
  posted[0].store(reinterpret_cast<std::uintptr_t>(data), std::memory_order_relaxed);
  posted[1].store(size, std::memory_order_relaxed);
  posted[2].store(static_cast<std::uint64_t>(getpid()), std::memory_order_relaxed);
  shm.post(source).store(seq, std::memory_order_release);
}

void pull_single_copy(CommContext& ctx, const Config& config, int source, char* data, std::uint64_t size) {
  std::atomic<std::uint64_t>* posted = ctx.shm->posted(source);
  const char* remote = reinterpret_cast<const char*>(posted[0].load(std::memory_order_relaxed));
  const pid_t pid = static_cast<pid_t>(posted[2].load(std::memory_order_relaxed));
  const ReaderGroups readers = groups_of_readers(ctx, config, source);
  const std::uint64_t groups = static_cast<std::uint64_t>(readers.count);
  const std::uint64_t piece = std::max<std::uint64_t>((size + groups - 1) / groups, 64 << 10);
  const std::uint64_t pieces = (size + piece - 1) / piece;
  for (std::uint64_t step = 0; step < pieces; ++step) {
    const std::uint64_t p = rotating_part(readers.group[static_cast<std::size_t>(ctx.node_rank)], step, pieces);
    const std::size_t n = static_cast<std::size_t>(std::min(piece, size - p * piece));
    read_remote_or_stop(ctx.comm, source, pid, remote + p * piece, data + p * piece, n,
                        "MCORECOLL_BCAST_CMA_MIN_BYTES");
  }
}

}  // namespace mcorecoll
