#include "node/wait.hpp"

#include "decisions/config.hpp"
#include "progress/progress.hpp"
#include "topology/comm_context.hpp"

#include <sched.h>
#include <time.h>

namespace mcorecoll {
namespace {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

constexpr unsigned kProgressEvery = 2048;     // polls between two PMPI_Iprobe calls
constexpr unsigned kYieldsBeforeNap = 20000;  // then the waiter naps instead of yielding
constexpr long kNapNanoseconds = 20000;

}  // namespace

Waiter Waiter::for_context(const CommContext& ctx, const Config& config) {
  return Waiter(ctx.oversubscribed ? 0 : config.spin_polls, ctx.comm);
}

unsigned pause_once(unsigned& polls, unsigned spin_polls) {
  if (polls < spin_polls) {
    cpu_relax();
    ++polls;
    return 0;
  }
  const unsigned waits = ++polls - spin_polls;
  if (waits < kYieldsBeforeNap) {
    sched_yield();
  } else {
    const timespec nap = {0, kNapNanoseconds};
    nanosleep(&nap, nullptr);
  }
  return waits;
}

void Waiter::backoff(unsigned& polls) {
  const unsigned waits = pause_once(polls, static_cast<unsigned>(spin_polls_));
  if (waits == 0) return;
  // A rank that waits here may be the one whose non-blocking operations its peers wait for
  // (they may wait for them before they come to this call).
  if (operations_pending()) progress_operations();
  if (waits % kProgressEvery == 0) {
    int pending = 0;
    PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, progress_comm_, &pending, MPI_STATUS_IGNORE);
  }
}

void Waiter::wait_slow(const std::atomic<std::uint64_t>& flag, std::uint64_t target) {
  for (unsigned polls = 0; !reached(flag.load(std::memory_order_acquire), target);) backoff(polls);
}

}  // namespace mcorecoll
