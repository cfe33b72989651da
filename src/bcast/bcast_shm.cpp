#include "bcast/bcast_shm.hpp"

#include <algorithm>
#include <cstring>

#include "bcast/bcast_common.hpp"
#include "bcast/reader_schedule.hpp"
#include "common/message_bytes.hpp"
#include "decisions/config.hpp"
#include "node/call_areas.hpp"
#include "node/node_shm.hpp"
#include "node/wait.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {
namespace {

// Node rank leading r's coarsest group, or -1 on a flat node.
int group_leader(const CommContext& ctx, int r) {
  const std::vector<int>& leaders = coarsest_leaders(ctx);
  return leaders.empty() ? -1 : leaders[static_cast<std::size_t>(r)];
}

// A small message crosses each group boundary once: a reader outside the source's group
// (socket) would fetch the cell's lines from the source's socket, so only its group's leader
// does, and relays the chunk to a relay area in its own page, from which the group reads
// locally.
void relay_reader(CommContext& ctx, Waiter& waiter, char* out, std::size_t n, RingSpot spot,
                  std::uint64_t g) {
  NodeShm& shm = *ctx.shm;
  const int me = ctx.node_rank, lead = group_leader(ctx, me);
  if (me != lead) {
    waiter.wait_for(shm.relay_flag(lead), g + 1);
    std::memcpy(out, shm.relay_data(lead), n);
  } else {
    waiter.wait_for(*spot.flag, g + 1);
    std::memcpy(out, spot.data, n);
    // The relay area is free once every member has read the last chunk relayed through it. A leader
    // alone in its group has no one to relay to.
    bool members = false;
    for (int r = 0; r < ctx.node_size; ++r)
      if (r != me && group_leader(ctx, r) == me) {
        members = true;
        waiter.wait_for(shm.consumed(r), ctx.relayed_chunks);
      }
    if (members) {
      std::memcpy(shm.relay_data(me), out, n);
      shm.relay_flag(me).store(g + 1, std::memory_order_release);
      ctx.relayed_chunks = g + 1;
    }
  }
  shm.consumed(me).store(g + 1, std::memory_order_release);
}

// A reader of the ring copies the chunks out in rounds of up to `window`/2 chunks, so that
// the source fills the next round meanwhile. Inside a round its group starts at its own chunk and
// goes round (the paper's rotating schedule), and it says it is done once per round.
void read_ring(CommContext& ctx, const Config& config, Waiter& waiter, char* data,
               std::uint64_t size, int source, const RingCells& ring) {
  NodeShm& shm = *ctx.shm;
  const std::uint64_t cell = ring.cell_bytes, window = ring.window;
  const std::uint64_t chunks = (size + cell - 1) / cell;
  int group = 0, groups = 1;
  if (chunks > 1) {  // one chunk leaves no order to choose
    const ReaderGroups readers = groups_of_readers(ctx, config, source);
    group = readers.group[static_cast<std::size_t>(ctx.node_rank)];
    groups = readers.count;
  }
  const std::uint64_t round =
      std::min<std::uint64_t>(static_cast<std::uint64_t>(groups), std::max<std::uint64_t>(1, window / 2));
  for (std::uint64_t begin = 0; begin < chunks; begin += round) {
    const std::uint64_t in_round = std::min(round, chunks - begin);
    for (std::uint64_t step = 0; step < in_round; ++step) {
      const std::uint64_t j = begin + rotating_part(group, step, in_round);
      const std::uint64_t g = ctx.ring_chunks + j;  // ring chunk number, alike on every rank
      const RingSpot spot = ring.spot(g);
      waiter.wait_for(*spot.flag, g + 1);
      std::memcpy(data + j * cell, spot.data, static_cast<std::size_t>(std::min(cell, size - j * cell)));
    }
    shm.consumed(ctx.node_rank).store(ctx.ring_chunks + begin + in_round, std::memory_order_release);
  }
}

// Copy-in/copy-out: the source fills the ring's slots or cells in order, running ahead of the
// slowest reader by at most window-1 chunks; the readers copy each chunk out and say so.
void ring_phase(CommContext& ctx, const Config& config, Waiter& waiter, char* data,
                std::uint64_t size, int source) {
  NodeShm& shm = *ctx.shm;
  const RingCells ring = ring_cells(ctx, config, waiter, size);
  const std::uint64_t cell = ring.cell_bytes, window = ring.window;
  const std::uint64_t chunks = (size + cell - 1) / cell;
  const std::uint64_t first = ctx.ring_chunks;
  if (ctx.node_rank != source) {
    // A rank that fills chunk `first` is done with every chunk before it (its earlier calls
    // returned): with rotating roots, sources rarely need to look at readers' lines.
    std::uint64_t& known = ctx.ring_consumed_known[static_cast<std::size_t>(source)];
    if (reached(first, known)) known = first;
    // Relayed: messages of one chunk that fits a relay area, to readers outside the source's
    // group. Every rank of the node decides alike (same size, same hierarchy).
    if (size <= config.bcast_relay_max_bytes && chunks == 1 &&
        group_leader(ctx, ctx.node_rank) != group_leader(ctx, source))
      relay_reader(ctx, waiter, data, static_cast<std::size_t>(size), ring.spot(first), first);
    else
      read_ring(ctx, config, waiter, data, size, source, ring);
    ctx.ring_chunks = first + chunks;
    return;
  }
  for (std::uint64_t j = 0; j < chunks; ++j) {
    const std::uint64_t g = first + j;
    // The slot's or cell's previous chunk must be done with on every rank. Looking at a reader's
    // `consumed` fetches its line, and makes the reader's next store to it wait (stores
    // become visible in order), so the source first asks what it already knows. (Chunks of an
    // earlier lease count too: waiting for them is only cautious.)
    if (g >= window) {
      for (int r = 0; r < ctx.node_size; ++r) {
        std::uint64_t& known = ctx.ring_consumed_known[static_cast<std::size_t>(r)];
        if (r == source || reached(known, g + 1 - window)) continue;
        // From 4 cells on, wait for half a window more (a reader's round is at most that
        // long, so it gets there), so that the source looks again only every half window;
        // fewer cells must not empty.
        waiter.wait_for(shm.consumed(r), g + 1 - (window >= 4 ? window / 2 : window));
        known = shm.consumed(r).load(std::memory_order_acquire);
      }
    }
    const RingSpot spot = ring.spot(g);
    std::memcpy(spot.data, data + j * cell, static_cast<std::size_t>(std::min(cell, size - j * cell)));
    spot.flag->store(g + 1, std::memory_order_release);
  }
  shm.consumed(source).store(first + chunks, std::memory_order_release);
  ctx.ring_chunks = first + chunks;
}

// Single copy: the source posts where its bytes are; each reader pulls them in pieces, one
// piece per reader group, in the rotating schedule (reader_schedule.hpp); the source waits
// until all are done. Pieces are large: every process_vm_readv pins pages and costs a system
// call.
void single_copy_phase(CommContext& ctx, const Config& config, Waiter& waiter, char* data,
                       std::uint64_t size, int source) {
  NodeShm& shm = *ctx.shm;
  const std::uint64_t seq = ++ctx.seq;
  if (ctx.node_rank == source) {
    post_single_copy(shm, source, data, size, seq);
    for (int r = 0; r < ctx.node_size; ++r)
      if (r != source) waiter.wait_for(shm.done(r), seq);
    return;
  }
  waiter.wait_for(shm.post(source), seq);
  pull_single_copy(ctx, config, source, data, size);
  shm.done(ctx.node_rank).store(seq, std::memory_order_release);
}

}  // namespace

void node_bcast_bytes(CommContext& ctx, const Config& config, char* data, std::uint64_t size, int source) {
  if (ctx.node_size == 1 || size == 0) return;
  Waiter waiter = Waiter::for_context(ctx, config);
  ring_phase(ctx, config, waiter, data, size, source);
}

int bcast_shm(CommContext& ctx, const Config& config, void* buffer, int count,
              MPI_Datatype datatype, int root, std::uint64_t bytes, bool single_copy) {
  if (bytes == 0) return MPI_SUCCESS;  // nothing moves; every rank sees the same size
  MessageBytes msg(buffer, count, datatype, bytes);
  if (ctx.rank == root) msg.pack();
  Waiter waiter = Waiter::for_context(ctx, config);
  auto node_phase = [&](int source, char* data, std::uint64_t size) {
    if (ctx.node_size == 1) return;
    if (single_copy) single_copy_phase(ctx, config, waiter, data, size, source);
    else ring_phase(ctx, config, waiter, data, size, source);
  };

  const RankPlace& from = ctx.places[static_cast<std::size_t>(root)];
  const bool on_root_node = from.node == ctx.node_index;
  int rc = MPI_SUCCESS;
  // Across nodes, segment by segment: while the leaders broadcast one segment, the root's node
  // already moves the next and the other nodes still hand out the last. Inside one node, one
  // segment: the ring pipelines by itself.
  const std::uint64_t segment =
      ctx.node_count > 1 && config.bcast_segment_bytes > 0 ? config.bcast_segment_bytes : bytes;
  // After an error in the leaders' PMPI_Bcast the node phases still run (the leader returns
  // the error), so that no rank of the node waits for ever.
  for (std::uint64_t offset = 0; offset < bytes; offset += segment) {
    char* data = msg.data() + offset;
    const std::uint64_t size = std::min(segment, bytes - offset);
    if (on_root_node) node_phase(from.node_rank, data, size);
    if (ctx.node_count > 1) {
      // Node leaders are ranked by node index in the leaders' communicator.
      if (ctx.node_rank == 0) {
        const int sent = PMPI_Bcast(data, static_cast<int>(size), MPI_BYTE, from.node, ctx.leaders_comm);
        if (rc == MPI_SUCCESS) rc = sent;
      }
      if (!on_root_node) node_phase(0, data, size);
    }
  }
  if (ctx.rank != root) msg.unpack();
  return rc;
}

}  // namespace mcorecoll
