#include "entry/call_hooks.hpp"

#include "common/clock.hpp"
#include "common/device_memory.hpp"
#include "decisions/stats.hpp"
#include "entry/learning.hpp"

namespace mcorecoll {
namespace {

// What this thread's call in progress passed, per thread (an MPI_THREAD_MULTIPLE program calls
// collectives on several communicators at once). Unchecked: the call came in before a runtime
// was found (its communicator's set-up, inside the call, found one), so it is taken for device
// memory: the ranks then agree to hand it to the MPI library, which is always safe.
enum class Buffers { unchecked, host, device };
thread_local Buffers t_buffers = Buffers::unchecked;

}  // namespace

CallHooks::CallHooks(const void* first, const void* second) : hooks_(call_hooks_acquire()) {
  if (hooks_ & kHookDeviceBuffers)
    t_buffers = device_memory(first) || device_memory(second) ? Buffers::device : Buffers::host;
  if (hooks_ & kHookTiming) forget_call_counter();  // a count_call() outside any hooked call (MPI_Start's) is not this call's
  if (hooks_ & (kHookTiming | kHookLearning)) start_ns_ = monotonic_ns();
}

CallHooks::~CallHooks() {
  if (hooks_ & (kHookTiming | kHookLearning)) {
    const std::uint64_t ns = monotonic_ns() - start_ns_;
    if (hooks_ & kHookTiming) add_call_time(ns);
    if (hooks_ & kHookLearning) end_learning_sample(ns);
  }
  t_buffers = Buffers::unchecked;
}

bool call_has_device_buffers() { return gpu_runtime_loaded() && t_buffers != Buffers::host; }

}  // namespace mcorecoll
