#include "entry/call_hooks.hpp"

#include <time.h>

#include "common/device_memory.hpp"
#include "decisions/stats.hpp"

namespace mcorecoll {
namespace {

// Per thread: an MPI_THREAD_MULTIPLE program calls collectives on several communicators at once.
thread_local bool t_device_buffers = false;

// CLOCK_MONOTONIC (36 ns a read on the development VM). The CPU's time-stamp counter (12 ns)
// gave times 10-100x too large there for calls that waited, apparently its two CPUs' counters
// apart when a waiting rank moved between them.
std::uint64_t now_ns() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<std::uint64_t>(t.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(t.tv_nsec);
}

}  // namespace

CallHooks::CallHooks(const void* first, const void* second) : hooks_(call_hooks()) {
  if (hooks_ & kHookDeviceBuffers) t_device_buffers = device_memory(first) || device_memory(second);
  if (hooks_ & kHookTiming) start_ns_ = now_ns();
}

CallHooks::~CallHooks() {
  if (hooks_ & kHookTiming) add_call_time(now_ns() - start_ns_);
  if (hooks_ & kHookDeviceBuffers) t_device_buffers = false;
}

bool call_has_device_buffers() { return gpu_runtime_loaded() && t_device_buffers; }

}  // namespace mcorecoll
