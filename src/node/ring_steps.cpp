#include "node/ring_steps.hpp"

#include <algorithm>
#include <cstring>

#include "node/node_shm.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {

// The ring's cells and this message's first chunk number (the lease may have to grow: every
// node rank asks in this phase). False until they are known.
bool NodeRingSteps::start(std::uint64_t size, int* waiting_on) {
  if (started_) return true;
  if (!try_ring_cells(ctx_, config_, size, &ring_)) {
    *waiting_on = ctx_.lease_waits_for;
    return false;
  }
  started_ = true;
  first_ = ctx_.ring_chunks;
  chunks_ = ring_.chunks(size);
  next_ = 0;
  return true;
}

void NodeRingSteps::copy_chunk(char* to, const char* from, std::uint64_t size, std::uint64_t j) const {
  const std::uint64_t cell = ring_.cell_bytes;
  std::memcpy(to, from, static_cast<std::size_t>(std::min(cell, size - j * cell)));
}

bool NodeRingSteps::step(char* data, std::uint64_t size, int source, int* waiting_on) {
  if (ctx_.node_size == 1 || size == 0) return true;
  return ctx_.node_rank == source ? source_step(data, size, source, waiting_on)
                                  : reader_step(data, size, source, waiting_on);
}

// Fills the chunks whose cells every reader is done with; the rest wait for the next step.
bool NodeRingSteps::source_step(const char* data, std::uint64_t size, int source, int* waiting_on) {
  if (!start(size, waiting_on)) return false;
  NodeShm& shm = *ctx_.shm;
  const std::uint64_t window = ring_.window;
  for (; next_ < chunks_; ++next_) {
    const std::uint64_t g = first_ + next_;
    if (g >= window)
      for (int r = 0; r < ctx_.node_size; ++r) {
        std::uint64_t& known = ctx_.ring_consumed_known[static_cast<std::size_t>(r)];
        if (r == source || reached(known, g + 1 - window)) continue;
        known = shm.consumed(r).load(std::memory_order_acquire);
        if (!reached(known, g + 1 - window)) {
          *waiting_on = r;
          return false;
        }
      }
    const RingSpot spot = ring_.spot(g);
    copy_chunk(spot.data, data + next_ * ring_.cell_bytes, size, next_);
    spot.flag->store(g + 1, std::memory_order_release);
  }
  shm.consumed(source).store(first_ + chunks_, std::memory_order_release);
  ctx_.ring_chunks = first_ + chunks_;
  return true;
}

// Copies out the chunks that are there, in order.
bool NodeRingSteps::reader_step(char* data, std::uint64_t size, int source, int* waiting_on) {
  if (!started_) {
    if (!start(size, waiting_on)) return false;
    // The source is done with every chunk before its first (see bcast_shm.cpp).
    std::uint64_t& known = ctx_.ring_consumed_known[static_cast<std::size_t>(source)];
    if (reached(first_, known)) known = first_;
  }
  NodeShm& shm = *ctx_.shm;
  for (; next_ < chunks_; ++next_) {
    const std::uint64_t g = first_ + next_;
    const RingSpot spot = ring_.spot(g);
    if (!reached(spot.flag->load(std::memory_order_acquire), g + 1)) {
      *waiting_on = source;
      return false;
    }
    copy_chunk(data + next_ * ring_.cell_bytes, spot.data, size, next_);
    shm.consumed(ctx_.node_rank).store(g + 1, std::memory_order_release);
  }
  ctx_.ring_chunks = first_ + chunks_;
  return true;
}

}  // namespace mcorecoll
