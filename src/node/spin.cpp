#include "node/spin.hpp"

#include <sched.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>

namespace mcorecoll {
namespace {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

constexpr unsigned kYieldsBeforeNap = 20000;  // then the waiter naps instead of yielding
constexpr long kNapNanoseconds = 20000;

// Polls per microsecond. A poll is a pause, a load and the backing off's bookkeeping, and a
// pause costs 10 to 140 cycles depending on the processor, so it is timed rather than assumed,
// through the same step a wait takes (pause_once, below): the fastest of three tries, as being
// descheduled during one only makes it look slower.
double polls_per_microsecond() {
  constexpr unsigned kPolls = 4096;
  std::atomic<std::uint64_t> flag{0};
  double best = 1.0;
  for (int attempt = 0; attempt < 3; ++attempt) {
    const auto start = std::chrono::steady_clock::now();
    for (unsigned polls = 0; polls < kPolls && flag.load(std::memory_order_acquire) == 0;) pause_once(polls, kPolls);
    const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    if (us > 0) best = std::max(best, kPolls / us);
  }
  return best;
}

}  // namespace

unsigned spin_polls_for(int microseconds) {
  static const double per_us = polls_per_microsecond();  // once per process
  const double polls = per_us * std::max(microseconds, 0);
  return polls >= 1e9 ? 1000000000u : static_cast<unsigned>(polls);
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

}  // namespace mcorecoll
