#include "wait.hpp"

#include "comm_context.hpp"
#include "config.hpp"

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

void Waiter::backoff(unsigned& polls) {
  const unsigned spins = static_cast<unsigned>(spin_polls_);
  if (polls < spins) {
    cpu_relax();
    ++polls;
    return;
  }
  const unsigned waits = ++polls - spins;
  if (waits < kYieldsBeforeNap) {
    sched_yield();
  } else {
    const timespec nap = {0, kNapNanoseconds};
    nanosleep(&nap, nullptr);
  }
  if (waits % kProgressEvery == 0) {
    int pending = 0;
    PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, progress_comm_, &pending, MPI_STATUS_IGNORE);
  }
}

void Waiter::wait_slow(const std::atomic<std::uint64_t>& flag, std::uint64_t target) {
  for (unsigned polls = 0; !reached(flag.load(std::memory_order_acquire), target);) backoff(polls);
}

}  // namespace mcorecoll
