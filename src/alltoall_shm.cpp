#include "alltoall_shm.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "comm_context.hpp"
#include "config.hpp"
#include "message_bytes.hpp"
#include "node_reads.hpp"
#include "node_shm.hpp"
#include "pool_lease.hpp"
#include "runtime.hpp"
#include "wait.hpp"

namespace mcorecoll {
namespace {

// The node's staging areas, one of `area` bytes per node rank: leased from the node's pool
// (pool_lease.hpp) inside one node, fixed in the segment for the leaders' exchange.
struct Staging {
  char* base;
  std::size_t area;
  char* of(int node_rank) const { return base + static_cast<std::size_t>(node_rank) * area; }
};

Staging staging_of(CommContext& ctx) {
  NodeShm& shm = *ctx.shm;
  if (ctx.node_count > 1) return {shm.stage(0), shm.stage_bytes()};
  const Lease& lease = ctx.leases[static_cast<int>(LeaseKind::staging)];
  return {shm.pool().at(lease.offset), static_cast<std::size_t>(lease.shape[0])};
}

// One round's tiles, `len` bytes each, in half `h` of the staging areas and of the inbox.
struct Round {
  std::uint64_t seq;
  int h;
  std::size_t half;  // bytes in half a staging area
  std::size_t len;
  Staging staging;
};

// Node leader, across nodes: once every rank of the node has staged the round, sends each
// other node the tiles its ranks get from this node, and receives the tiles this node's ranks
// get from the others straight into the inbox, where tile (remote source s, node rank d) sits
// at (remote_index[s] * node_size + d) * len. Then says so to the node (also after an error,
// which the leader returns: the node must not wait for ever).
int exchange_between_nodes(CommContext& ctx, NodeShm& shm, const Round& round, Waiter& waiter) {
  const int local = ctx.node_size, nodes = ctx.node_count;
  for (int r = 1; r < local; ++r) waiter.wait_for(shm.post(r), round.seq);
  // Node A sends node B |A| * |B| tiles and receives as many back: one set of counts and
  // displacements serves both directions.
  std::vector<int> counts(static_cast<std::size_t>(nodes), 0), displs = counts;
  std::size_t total = 0;
  for (int node = 0; node < nodes; ++node) {
    if (node == ctx.node_index) continue;
    const std::size_t bytes = ctx.node_members[static_cast<std::size_t>(node)].size() *
                              static_cast<std::size_t>(local) * round.len;
    counts[static_cast<std::size_t>(node)] = static_cast<int>(bytes);
    displs[static_cast<std::size_t>(node)] = static_cast<int>(total);
    total += bytes;
  }
  // Outgoing, by destination node, then source node rank, then destination.
  ctx.exchange_buffer.resize(total);
  char* out = ctx.exchange_buffer.data();
  for (int node = 0; node < nodes; ++node) {
    if (node == ctx.node_index) continue;
    for (int s = 0; s < local; ++s) {
      const char* staged = round.staging.of(s) + static_cast<std::size_t>(round.h) * round.half;
      for (int d : ctx.node_members[static_cast<std::size_t>(node)]) {
        std::memcpy(out, staged + static_cast<std::size_t>(d) * round.len, round.len);
        out += round.len;
      }
    }
  }
  const int rc = PMPI_Alltoallv(ctx.exchange_buffer.data(), counts.data(), displs.data(), MPI_BYTE,
                                shm.inbox(round.h), counts.data(), displs.data(), MPI_BYTE,
                                ctx.leaders_comm);
  shm.delivered().store(round.seq, std::memory_order_release);
  return rc;
}

// Copies this rank's tile of the round from every staging area of the node.
void gather_from_node(CommContext& ctx, NodeShm& shm, const Round& round, int cap, char* recv,
                      std::uint64_t block, std::uint64_t offset, Waiter& waiter) {
  const std::vector<int>& mates = ctx.node_members[static_cast<std::size_t>(ctx.node_index)];
  read_from_node(shm, ctx.node_rank, ctx.node_size, round.seq, cap, waiter, [&](int src_local) {
    const char* theirs = round.staging.of(src_local) + static_cast<std::size_t>(round.h) * round.half;
    std::memcpy(recv + mates[static_cast<std::size_t>(src_local)] * block + offset,
                theirs + static_cast<std::size_t>(ctx.rank) * round.len, round.len);
  });
}

}  // namespace

bool staging_ready(CommContext& ctx, const Config& config, std::uint64_t block) {
  if (ctx.node_count > 1) return true;  // fixed staging in the segment
  // Two halves of a tile per peer: the whole block, up to the configured area.
  const std::uint64_t page = NodePool::kPage;
  std::uint64_t area = 2 * static_cast<std::uint64_t>(ctx.size) * block;
  area = area >= page ? (area + page - 1) / page * page : (area + kLineBytes - 1) / kLineBytes * kLineBytes;
  area = std::min<std::uint64_t>(area, staging_area_bytes(config));
  Waiter waiter = Waiter::for_context(ctx, config);
  return ensure_lease(ctx, LeaseKind::staging, area, 0, waiter);
}

int alltoall_shm(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount,
                 MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                 std::uint64_t block) {
  if (block == 0) return MPI_SUCCESS;
  const int n = ctx.size, local = ctx.node_size, my_local = ctx.node_rank;
  const bool across_nodes = ctx.node_count > 1;
  const std::uint64_t total = block * static_cast<std::uint64_t>(n);
  AlltoallBytes sides(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, n, total, ctx.comm);
  MessageBytes &recv = sides.recv, &send = sides.send;
  // In place, the send data is the receive buffer, read tile by tile before it is overwritten.
  const char* out = sides.in_place ? recv.data() : send.data();
  if (sides.in_place && !recv.contiguous()) std::memcpy(recv.data(), send.data(), total);

  NodeShm& shm = *ctx.shm;
  Waiter waiter = Waiter::for_context(ctx, config);
  // The staging areas (and the inbox) are used in two halves, alternately, so that a rank can
  // stage the next round while slower ranks still read the last one. A round moves one tile of
  // every block; the inbox holds a round's tiles from other nodes for every rank of the node.
  const Staging staging = staging_of(ctx);
  const std::size_t half = staging.area / 2;
  const std::uint64_t tile = std::max<std::uint64_t>(half / static_cast<std::size_t>(n), 1);
  int rc = MPI_SUCCESS;
  for (std::uint64_t offset = 0; offset < block; offset += tile) {
    Round round;
    round.seq = ++ctx.seq;
    round.h = static_cast<int>(round.seq & 1);  // same on every rank: they count alike
    round.half = half;
    round.len = static_cast<std::size_t>(std::min(tile, block - offset));
    round.staging = staging;
    const std::size_t len = round.len;
    // This half (and this half of the inbox) is free once every rank of the node has read
    // the last round that used it.
    for (int r = 0; r < local; ++r)
      if (r != my_local) waiter.wait_for(shm.done(r), ctx.last_stage_seq[round.h]);
    char* mine = staging.of(my_local) + static_cast<std::size_t>(round.h) * half;
    for (int dst = 0; dst < n; ++dst)
      std::memcpy(mine + static_cast<std::size_t>(dst) * len, out + dst * block + offset, len);
    shm.post(my_local).store(round.seq, std::memory_order_release);
    if (across_nodes && my_local == 0) {
      const int exchanged = exchange_between_nodes(ctx, shm, round, waiter);
      if (rc == MPI_SUCCESS) rc = exchanged;
    }
    gather_from_node(ctx, shm, round, config.alltoall_readers, recv.data(), block, offset, waiter);
    if (across_nodes) {
      if (my_local != 0) waiter.wait_for(shm.delivered(), round.seq);
      const char* inbox = shm.inbox(round.h);
      for (int src = 0; src < n; ++src) {
        const int remote = ctx.remote_index[static_cast<std::size_t>(src)];
        if (remote < 0) continue;
        const std::size_t at = (static_cast<std::size_t>(remote) * static_cast<std::size_t>(local) +
                                static_cast<std::size_t>(my_local)) * len;
        std::memcpy(recv.data() + src * block + offset, inbox + at, len);
      }
    }
    shm.done(my_local).store(round.seq, std::memory_order_release);
    ctx.last_stage_seq[round.h] = round.seq;
  }
  recv.unpack();
  return rc;
}

}  // namespace mcorecoll
