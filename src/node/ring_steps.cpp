#include "node/ring_steps.hpp"

#include <algorithm>
#include <cstring>

#include "decisions/config.hpp"
#include "node/node_shm.hpp"
#include "node/wait.hpp"
#include "node/comm_context.hpp"
#include "node/transfer_count.hpp"

namespace mcorecoll {

const std::vector<int>& coarsest_leaders(const CommContext& ctx) {
  static const std::vector<int> flat;
  return ctx.hierarchy.leader.empty() ? flat : ctx.hierarchy.leader[0];
}

ReaderGroups groups_of_readers(const CommContext& ctx, const Config& config, int source) {
  return reader_groups(ctx.node_size, source, config.bcast_readers, coarsest_leaders(ctx));
}

int NodeRingSteps::group_leader(int r) const {
  const std::vector<int>& leaders = coarsest_leaders(ctx_);
  return leaders.empty() ? -1 : leaders[static_cast<std::size_t>(r)];
}

// The ring's cells and this message's first chunk number (the lease may have to grow: every
// node rank asks in this phase), and how this rank reads. False until the cells are known.
bool NodeRingSteps::start(std::uint64_t size, int source, int* waiting_on) {
  if (started_) return true;
  if (!try_ring_cells(ctx_, config_, size, &ring_)) {
    *waiting_on = ctx_.channel.lease_waits_for;
    return false;
  }
  started_ = true;
  first_ = ctx_.channel.ring_chunks;
  chunks_ = ring_.chunks(size);
  next_ = 0;
  begin_ = 0;
  if (ctx_.node_rank == source) return true;
  // A rank that fills chunk `first` is done with every chunk before it (its earlier calls
  // returned): with rotating roots, sources rarely need to look at readers' lines.
  std::uint64_t& known = ctx_.channel.ring_consumed_known[static_cast<std::size_t>(source)];
  if (reached(first_, known)) known = first_;
  // Every rank of the node decides alike (same size, same hierarchy).
  relayed_ = size <= config_.bcast_relay_max_bytes && chunks_ == 1 &&
             group_leader(ctx_.node_rank) != group_leader(source);
  if (relayed_) {
    have_chunk_ = members_ = false;
    member_ = 0;
  }
  group_ = 0;
  round_ = 1;
  if (chunks_ > 1) {  // one chunk leaves no order to choose
    const ReaderGroups readers = groups_of_readers(ctx_, config_, source);
    group_ = readers.group[static_cast<std::size_t>(ctx_.node_rank)];
    round_ = std::min<std::uint64_t>(static_cast<std::uint64_t>(readers.count),
                                     std::max<std::uint64_t>(1, ring_.window / 2));
  }
  return true;
}

void NodeRingSteps::copy_chunk(char* to, const char* from, std::uint64_t size, std::uint64_t j) {
  ++moves_;
  const std::uint64_t cell = ring_.cell_bytes;
  std::memcpy(to, from, static_cast<std::size_t>(std::min(cell, size - j * cell)));
}

bool NodeRingSteps::step(char* data, std::uint64_t size, int source, int* waiting_on) {
  if (ctx_.node_size == 1 || size == 0) return true;
  if (!start(size, source, waiting_on)) return false;
  if (ctx_.node_rank == source) return source_step(data, size, source, waiting_on);
  return relayed_ ? relay_step(data, size, source, waiting_on) : reader_step(data, size, source, waiting_on);
}

// Fills the chunks whose cells every reader is done with; the rest wait for the next step.
bool NodeRingSteps::source_step(const char* data, std::uint64_t size, int source, int* waiting_on) {
  NodeShm& shm = *ctx_.channel.shm;
  const std::uint64_t window = ring_.window;
  for (; next_ < chunks_; ++next_) {
    const std::uint64_t g = first_ + next_;
    // The cell's previous chunk must be done with on every rank. (Chunks of an earlier lease
    // count too: waiting for them is only cautious.)
    if (g >= window)
      for (int r = 0; r < ctx_.node_size; ++r) {
        std::uint64_t& known = ctx_.channel.ring_consumed_known[static_cast<std::size_t>(r)];
        if (r == source || reached(known, g + 1 - window)) continue;
        // From 4 cells on, half a window more (a reader's round is at most that long, so it
        // gets there): the source looks again only every half window. Fewer cells must not
        // empty.
        const std::uint64_t seen = shm.consumed(r).load(std::memory_order_acquire);
        if (!reached(seen, g + 1 - (window >= 4 ? window / 2 : window))) {
          *waiting_on = r;
          return false;
        }
        known = seen;
      }
    const RingSpot spot = ring_.spot(g);
    copy_chunk(spot.data, data + next_ * ring_.cell_bytes, size, next_);
    spot.flag->store(g + 1, std::memory_order_release);
    count_post(ctx_, *spot.flag, g + 1);
  }
  shm.consumed(source).store(first_ + chunks_, std::memory_order_release);
  ctx_.channel.ring_chunks = first_ + chunks_;
  return true;
}

// Copies out, round by round, the chunks that are there, in its group's order.
bool NodeRingSteps::reader_step(char* data, std::uint64_t size, int source, int* waiting_on) {
  NodeShm& shm = *ctx_.channel.shm;
  for (; begin_ < chunks_; begin_ += round_, next_ = 0) {
    const std::uint64_t in_round = std::min(round_, chunks_ - begin_);
    for (; next_ < in_round; ++next_) {
      const std::uint64_t j = begin_ + (in_round > 1 ? rotating_part(group_, next_, in_round) : 0);
      const std::uint64_t g = first_ + j;  // ring chunk number, alike on every rank
      const RingSpot spot = ring_.spot(g);
      if (!arrived(waiter_, *spot.flag, g + 1, source, waiting_on)) return false;
      count_read(ctx_, *spot.flag, g + 1, source, std::min(ring_.cell_bytes, size - j * ring_.cell_bytes));
      copy_chunk(data + j * ring_.cell_bytes, spot.data, size, j);
    }
    shm.consumed(ctx_.node_rank).store(first_ + begin_ + in_round, std::memory_order_release);
  }
  ctx_.channel.ring_chunks = first_ + chunks_;
  return true;
}

// The one chunk through the relay areas: the group's leader copies it from the ring, and,
// once its members have read the last chunk it relayed, into its relay area.
bool NodeRingSteps::relay_step(char* data, std::uint64_t size, int source, int* waiting_on) {
  NodeShm& shm = *ctx_.channel.shm;
  const int me = ctx_.node_rank, lead = group_leader(me);
  const std::uint64_t g = first_;
  const std::size_t n = static_cast<std::size_t>(size);
  if (me != lead) {
    if (!arrived(waiter_, shm.relay_flag(lead), g + 1, lead, waiting_on)) return false;
    count_read(ctx_, shm.relay_flag(lead), g + 1, lead, n);
    std::memcpy(data, shm.relay_data(lead), n);
  } else {
    if (!have_chunk_) {
      const RingSpot spot = ring_.spot(g);
      if (!arrived(waiter_, *spot.flag, g + 1, source, waiting_on)) return false;
      count_read(ctx_, *spot.flag, g + 1, source, n);
      std::memcpy(data, spot.data, n);
      have_chunk_ = true;
      ++moves_;
    }
    // A leader alone in its group has no one to relay to.
    for (; member_ < ctx_.node_size; ++member_) {
      if (member_ == me || group_leader(member_) != me) continue;
      members_ = true;
      if (!reached(shm.consumed(member_).load(std::memory_order_acquire), ctx_.channel.relayed_chunks)) {
        *waiting_on = member_;
        return false;
      }
    }
    if (members_) {
      std::memcpy(shm.relay_data(me), data, n);
      shm.relay_flag(me).store(g + 1, std::memory_order_release);
      count_post(ctx_, shm.relay_flag(me), g + 1);
      ctx_.channel.relayed_chunks = g + 1;
    }
  }
  shm.consumed(me).store(g + 1, std::memory_order_release);
  ctx_.channel.ring_chunks = first_ + chunks_;
  return true;
}

}  // namespace mcorecoll
