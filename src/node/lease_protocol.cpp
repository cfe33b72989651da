#include "node/lease_protocol.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "common/shm_layout.hpp"

namespace mcorecoll {
namespace {

constexpr std::uint64_t kHoldersBytes = kLineBytes;  // the lease's last line

// Sequence numbers only grow; compare wrap-safely.
bool reached(std::uint64_t value, std::uint64_t target) { return static_cast<std::int64_t>(value - target) >= 0; }

std::atomic<std::uint64_t>& holders(NodePool& pool, const Lease& lease) {
  return *reinterpret_cast<std::atomic<std::uint64_t>*>(pool.at(lease.offset + lease.bytes - kHoldersBytes));
}

// The whole lease for `data_bytes`: its holders line after them, in whole pages.
std::uint64_t lease_bytes(std::uint64_t data_bytes) {
  return (data_bytes + kHoldersBytes + NodePool::kPage - 1) / NodePool::kPage * NodePool::kPage;
}

// The data bytes of a lease of `shape`, how they split into parts, and the NUMA domain of each
// part in turn: ring cells spread over the node's domains (no one memory controller serves
// every reader), a staging area on the domain of the rank that writes it.
struct Plan {
  std::uint64_t data_bytes, part_bytes;
  std::vector<int> numa;
};

Plan plan(const LeaseParty& p, const std::uint64_t shape[2]) {
  const std::vector<int>& numa_os = *p.numa_os;
  if (p.kind == LeaseKind::ring) {
    const std::set<int> domains(numa_os.begin(), numa_os.end());
    return {shape[0] * ring_stride(shape[1]), ring_stride(shape[1]), std::vector<int>(domains.begin(), domains.end())};
  }
  return {static_cast<std::uint64_t>(p.node_size) * shape[0], shape[0], numa_os};
}

// The node leader: a lease of `wished`, else of `needed`, with its holders set; kNoSpace in
// the offset when neither fits.
Lease lease_for(const LeaseParty& p, const std::uint64_t wished[2], const std::uint64_t needed[2]) {
  Lease got;
  for (const std::uint64_t* s : {wished, needed}) {
    const Plan plan_of_s = plan(p, s);
    const std::uint64_t bytes = lease_bytes(plan_of_s.data_bytes);
    got.offset = p.pool->lease(bytes, plan_of_s.part_bytes, plan_of_s.numa);
    if (got.offset != NodePool::kNoSpace) {
      got.bytes = bytes;
      got.shape[0] = s[0], got.shape[1] = s[1];
      holders(*p.pool, got).store(static_cast<std::uint64_t>(p.node_size), std::memory_order_relaxed);
      break;
    }
  }
  return got;
}

[[noreturn]] void broken_protocol(int node_rank, std::uint64_t seen, std::uint64_t expected) {
  std::fprintf(stderr,
               "mcorecoll: internal error: node rank %d found lease generation %llu where it waits for %llu "
               "(the leader may not rewrite a lease line before every rank has read it)\n",
               node_rank, static_cast<unsigned long long>(seen), static_cast<unsigned long long>(expected));
  std::abort();
}

}  // namespace

std::uint64_t ring_stride(std::uint64_t cell_bytes) {
  return (8 + cell_bytes + kLineBytes - 1) / kLineBytes * kLineBytes;
}

std::uint64_t private_pool_bytes(int ring_cells, std::uint64_t ring_cell_bytes, std::uint64_t stage_bytes, int node_size) {
  // The ring's, and two staging leases (the alltoall's and the reductions', both of stage_bytes).
  const std::uint64_t leases = 2 * (lease_bytes(static_cast<std::uint64_t>(ring_cells) * ring_stride(ring_cell_bytes)) +
                                    2 * lease_bytes(static_cast<std::uint64_t>(node_size) * stage_bytes));
  return NodePool::header_bytes(leases + NodePool::kPage) + leases;
}

void let_go(NodePool& pool, Lease& lease) {
  if (lease.held() && holders(pool, lease).fetch_sub(1, std::memory_order_acq_rel) == 1)
    pool.release(lease.offset, lease.bytes);
  lease.offset = NodePool::kNoSpace;
}

LeaseAnswer ask_lease(const LeaseParty& p, Lease& current, std::uint64_t want0, std::uint64_t want1,
                      int* waits_for) {
  if (current.held() && current.shape[0] >= want0 && current.shape[1] >= want1) return LeaseAnswer::held;
  LeaseLine& line = *p.line;
  const std::uint64_t generation = current.generation + 1;
  if (p.node_rank == 0) {
    for (int r = 1; r < p.node_size; ++r)
      if (!reached(p.ack(r).load(std::memory_order_acquire), generation - 1)) {
        if (waits_for) *waits_for = r;
        return LeaseAnswer::pending;
      }
    const std::uint64_t needed[2] = {want0, want1};
    const std::uint64_t wished[2] = {std::max(current.held() ? current.shape[0] : 0, want0),
                                     std::max(current.held() ? current.shape[1] : 0, want1)};
    const Lease got = lease_for(p, wished, needed);
    line.offset = got.offset;
    line.bytes = got.bytes;
    line.shape[0] = got.shape[0], line.shape[1] = got.shape[1];
    line.generation.store(generation, std::memory_order_release);
  } else {
    const std::uint64_t stamped = line.generation.load(std::memory_order_acquire);
    if (stamped != generation) {
      if (reached(stamped, generation)) broken_protocol(p.node_rank, stamped, generation);
      if (waits_for) *waits_for = 0;
      return LeaseAnswer::pending;
    }
  }
  Lease next;
  next.generation = generation;
  next.offset = line.offset;
  next.bytes = line.bytes;
  next.shape[0] = line.shape[0], next.shape[1] = line.shape[1];
  // Read: the leader may write the next generation once every rank has said so.
  p.ack(p.node_rank).store(generation, std::memory_order_release);
  if (!next.held()) {  // no room: keep what is held
    current.generation = generation;
    return current.held() ? LeaseAnswer::held : LeaseAnswer::none;
  }
  let_go(*p.pool, current);
  current = next;
  return LeaseAnswer::held;
}

}  // namespace mcorecoll
