#include "pool_lease.hpp"

#include <algorithm>
#include <atomic>
#include <set>
#include <vector>

#include "comm_context.hpp"
#include "node_shm.hpp"
#include "wait.hpp"

namespace mcorecoll {
namespace {

constexpr std::uint64_t kHoldersBytes = kLineBytes;  // the lease's last line

std::atomic<std::uint64_t>& holders(NodePool& pool, const Lease& lease) {
  return *reinterpret_cast<std::atomic<std::uint64_t>*>(pool.at(lease.offset + lease.bytes - kHoldersBytes));
}

void let_go(NodePool& pool, Lease& lease) {
  if (lease.held() && holders(pool, lease).fetch_sub(1, std::memory_order_acq_rel) == 1)
    pool.release(lease.offset, lease.bytes);
  lease.offset = NodePool::kNoSpace;
}

// The data bytes of a lease of `shape`, how they split into parts, and the NUMA domain of each
// part in turn: ring cells spread over the node's domains (no one memory controller serves
// every reader), a staging area on the domain of the rank that writes it.
struct Plan {
  std::uint64_t data_bytes, part_bytes;
  std::vector<int> numa;
};
// The whole lease for `data_bytes`: its holders line after them, in whole pages.
std::uint64_t lease_bytes(std::uint64_t data_bytes) {
  return (data_bytes + kHoldersBytes + NodePool::kPage - 1) / NodePool::kPage * NodePool::kPage;
}

Plan plan(const CommContext& ctx, LeaseKind kind, const std::uint64_t shape[2]) {
  std::vector<int> numa_os(static_cast<std::size_t>(ctx.node_size), -1);
  for (const RankPlace& rp : ctx.places)
    if (rp.node == ctx.node_index) numa_os[static_cast<std::size_t>(rp.node_rank)] = rp.place.numa_os;
  if (kind == LeaseKind::ring) {
    const std::set<int> domains(numa_os.begin(), numa_os.end());
    return {shape[0] * ring_stride(shape[1]), ring_stride(shape[1]), std::vector<int>(domains.begin(), domains.end())};
  }
  return {static_cast<std::uint64_t>(ctx.node_size) * shape[0], shape[0], numa_os};
}

// The node leader: a lease of `shape`, else of `want` (what the operation needs), with its
// holders set; kNoSpace in `got.offset` when neither fits.
Lease lease_for(CommContext& ctx, LeaseKind kind, const std::uint64_t shape[2], const std::uint64_t want[2]) {
  NodePool& pool = ctx.shm->pool();
  Lease got;
  for (const std::uint64_t* s : {shape, want}) {
    const Plan p = plan(ctx, kind, s);
    const std::uint64_t bytes = lease_bytes(p.data_bytes);
    got.offset = pool.lease(bytes, p.part_bytes, p.numa);
    if (got.offset != NodePool::kNoSpace) {
      got.bytes = bytes;
      got.shape[0] = s[0], got.shape[1] = s[1];
      holders(pool, got).store(static_cast<std::uint64_t>(ctx.node_size), std::memory_order_relaxed);
      break;
    }
  }
  return got;
}

}  // namespace

std::uint64_t private_pool_bytes(int ring_cells, std::uint64_t ring_cell_bytes, std::uint64_t stage_bytes, int node_size) {
  const std::uint64_t leases = 2 * (lease_bytes(static_cast<std::uint64_t>(ring_cells) * ring_stride(ring_cell_bytes)) +
                                    lease_bytes(static_cast<std::uint64_t>(node_size) * stage_bytes));
  return NodePool::header_bytes(leases + NodePool::kPage) + leases;
}

std::uint64_t ring_stride(std::uint64_t cell_bytes) {
  return (8 + cell_bytes + kLineBytes - 1) / kLineBytes * kLineBytes;
}

LeaseAnswer try_lease(CommContext& ctx, LeaseKind kind, std::uint64_t want0, std::uint64_t want1) {
  Lease& current = ctx.leases[static_cast<int>(kind)];
  if (current.held() && current.shape[0] >= want0 && current.shape[1] >= want1) return LeaseAnswer::held;
  NodeShm& shm = *ctx.shm;
  LeaseLine& line = shm.lease_line(static_cast<int>(kind));
  const std::uint64_t generation = current.generation + 1;
  if (ctx.node_rank == 0) {
    // Ring readers may lag operations behind (a bcast source does not wait for them): the line
    // is rewritten only once every rank has read the last one. Alltoall ranks cannot lag: no
    // rank ends an operation before every rank has begun it.
    if (kind == LeaseKind::ring)
      for (int r = 1; r < ctx.node_size; ++r)
        if (!reached(shm.lease_seen(r).load(std::memory_order_acquire), generation - 1)) return LeaseAnswer::pending;
    const std::uint64_t want[2] = {want0, want1};
    const std::uint64_t grown[2] = {std::max(current.held() ? current.shape[0] : 0, want0),
                                    std::max(current.held() ? current.shape[1] : 0, want1)};
    const Lease got = lease_for(ctx, kind, grown, want);
    line.offset = got.offset;
    line.bytes = got.bytes;
    line.shape[0] = got.shape[0], line.shape[1] = got.shape[1];
    line.generation.store(generation, std::memory_order_release);
  } else if (!reached(line.generation.load(std::memory_order_acquire), generation)) {
    return LeaseAnswer::pending;
  }
  Lease next;
  next.generation = generation;
  next.offset = line.offset;
  next.bytes = line.bytes;
  next.shape[0] = line.shape[0], next.shape[1] = line.shape[1];
  if (kind == LeaseKind::ring) shm.lease_seen(ctx.node_rank).store(generation, std::memory_order_release);
  if (!next.held()) {  // the pool was full: keep what we have
    current.generation = generation;
    return current.held() ? LeaseAnswer::held : LeaseAnswer::none;
  }
  let_go(shm.pool(), current);
  current = next;
  return LeaseAnswer::held;
}

bool ensure_lease(CommContext& ctx, LeaseKind kind, std::uint64_t want0, std::uint64_t want1, Waiter& waiter) {
  for (unsigned polls = 0;; waiter.backoff(polls)) {
    const LeaseAnswer answer = try_lease(ctx, kind, want0, want1);
    if (answer != LeaseAnswer::pending) return answer == LeaseAnswer::held;
  }
}

void drop_leases(CommContext& ctx) {
  if (!ctx.shm) return;
  for (Lease& lease : ctx.leases) let_go(ctx.shm->pool(), lease);
}

}  // namespace mcorecoll
