#include "node/wait.hpp"

#include <algorithm>

#include "decisions/config.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {

constexpr unsigned kProgressEvery = 2048;     // polls between two PMPI_Iprobe calls
constexpr unsigned kPendingCheckEvery = 64;   // spinning polls between two looks at pending operations

bool nothing_pending() { return false; }
void no_steps() {}
std::atomic<bool (*)()> g_pending{nothing_pending};
std::atomic<void (*)()> g_step{no_steps};

}  // namespace

void set_wait_progress(bool (*pending)(), void (*step)()) {
  g_step.store(step, std::memory_order_relaxed);
  g_pending.store(pending, std::memory_order_release);
}

Waiter Waiter::for_context(const CommContext& ctx, const Config& config) {
  if (ctx.oversubscribed) return Waiter(0, ctx.comm);
  // Every blocking call asks, for the process's one setting: its polls are worked out once
  // (the time in the word's high half, the polls in its low half).
  static std::atomic<std::uint64_t> kept{~std::uint64_t{0}};
  const std::uint64_t us = static_cast<std::uint64_t>(std::max(config.spin_us, 0));
  std::uint64_t word = kept.load(std::memory_order_relaxed);
  if (word >> 32 != us) {
    word = us << 32 | spin_polls_for(config.spin_us);
    kept.store(word, std::memory_order_relaxed);
  }
  return Waiter(static_cast<int>(static_cast<std::uint32_t>(word)), ctx.comm);
}

void Waiter::backoff(unsigned& polls) {
  const unsigned waits = pause_once(polls, static_cast<unsigned>(spin_polls_));
  // A rank that waits here may be the one whose non-blocking operations its peers wait for
  // (they may wait for them before they come to this call): looked at every step past the
  // spinning, and now and then while it spins.
  if ((waits > 0 || polls % kPendingCheckEvery == 0) && g_pending.load(std::memory_order_acquire)())
    g_step.load(std::memory_order_relaxed)();
  if (polls % kProgressEvery == 0) {
    int pending = 0;
    PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, progress_comm_, &pending, MPI_STATUS_IGNORE);
  }
}

void Waiter::wait_slow(const std::atomic<std::uint64_t>& flag, std::uint64_t target) {
  for (unsigned polls = 0; !reached(flag.load(std::memory_order_acquire), target);) backoff(polls);
}

}  // namespace mcorecoll
