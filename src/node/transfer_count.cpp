#include "node/transfer_count.hpp"

#if MCORECOLL_COUNT_TRANSFERS

#include <mutex>
#include <vector>

#include "node/comm_context.hpp"
#include "node/node_shm.hpp"
#include "node/transfer_events.h"

#define MCORECOLL_EXPORT __attribute__((visibility("default")))

static_assert(sizeof(mcorecoll_transfer_event) == 32, "the test gathers the events as bytes");

namespace mcorecoll {
namespace {

// Off until the first clear: the sanitizers' build is counted, and its long tests (the soak,
// the sequence tester) would otherwise grow the record without end for nobody.
std::atomic<bool> recording{false};
std::mutex record_lock;
std::vector<mcorecoll_transfer_event> record;

std::uint64_t offset_in(CommContext& ctx, const std::atomic<std::uint64_t>& word) {
  return static_cast<std::uint64_t>(reinterpret_cast<const char*>(&word) - ctx.channel.shm->base());
}

}  // namespace

void count_post(CommContext& ctx, const std::atomic<std::uint64_t>& word, std::uint64_t value) {
  if (!recording.load(std::memory_order_relaxed)) return;
  const mcorecoll_transfer_event e{offset_in(ctx, word), value, 0, MCORECOLL_TRANSFER_POST, -1};
  std::lock_guard<std::mutex> hold(record_lock);
  record.push_back(e);
}

void count_read(CommContext& ctx, const std::atomic<std::uint64_t>& word, std::uint64_t value, int from,
                std::size_t bytes) {
  if (!recording.load(std::memory_order_relaxed) || from == ctx.node_rank) return;
  const mcorecoll_transfer_event e{offset_in(ctx, word), value, bytes, MCORECOLL_TRANSFER_READ, from};
  std::lock_guard<std::mutex> hold(record_lock);
  // A second look at the same record of the same call is the same transfer (the v-forms'
  // header line reads a rank's header, later its tiles: exchange/staged_exchange.hpp's
  // HeaderLine). Only the events of the call being measured are here, so the search is short.
  for (auto it = record.rbegin(); it != record.rend(); ++it)
    if (it->kind == MCORECOLL_TRANSFER_READ && it->offset == e.offset && it->value == value && it->from == from)
      return;
  record.push_back(e);
}

void count_network(int what, int to_node, std::uint64_t bytes) {
  if (!recording.load(std::memory_order_relaxed)) return;
  const mcorecoll_transfer_event e{0, static_cast<std::uint64_t>(what), bytes, MCORECOLL_TRANSFER_NETWORK, to_node};
  std::lock_guard<std::mutex> hold(record_lock);
  record.push_back(e);
}

void count_network_elements(int what, int to_node, int count, MPI_Datatype type) {
  int size = 0;
  PMPI_Type_size(type, &size);
  count_network(what, to_node, static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(size));
}

}  // namespace mcorecoll

extern "C" {

MCORECOLL_EXPORT size_t mcorecoll_transfer_events(mcorecoll_transfer_event* out, size_t capacity) {
  std::lock_guard<std::mutex> hold(mcorecoll::record_lock);
  const std::size_t n = mcorecoll::record.size();
  for (std::size_t i = 0; i < n && i < capacity; ++i) out[i] = mcorecoll::record[i];
  return n;
}

MCORECOLL_EXPORT void mcorecoll_transfer_events_clear(void) {
  std::lock_guard<std::mutex> hold(mcorecoll::record_lock);
  mcorecoll::record.clear();
  mcorecoll::recording.store(true, std::memory_order_relaxed);
}

}  // extern "C"

#endif
