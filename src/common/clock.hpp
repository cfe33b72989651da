// The time the library measures with: CLOCK_MONOTONIC in nanoseconds (36 ns a read on the
// development VM). The CPU's time-stamp counter (12 ns) gave times 10-100x too large there for
// calls that waited, apparently its two CPUs' counters apart when a waiting rank moved between
// them.
#pragma once

#include <time.h>

#include <cstdint>

namespace mcorecoll {

inline std::uint64_t monotonic_ns() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<std::uint64_t>(t.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(t.tv_nsec);
}

}  // namespace mcorecoll
