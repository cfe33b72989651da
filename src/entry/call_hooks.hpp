// What an intercepted call does besides being routed, where hook_flags.hpp says so: the
// generated entry points take call_with_hooks() then, out of line, so that their common path
// keeps its tail call (one load and one branch more than without hooks, measured with
// callgrind: bench/handoff/).
//  - Device buffers: whether the call's send or receive buffer is GPU memory, asked of the
//    runtime before anything else runs; the routing reads the answer (call_decision.cpp): a
//    call whose buffer is device memory on any rank goes to the MPI library on every rank,
//    which knows how to move it; mcorecoll's paths read and write buffers with the CPU.
//  - Timing: the call's time on this rank, added to the statistics' counter the call counted
//    itself in (stats.hpp).
#pragma once

#include <cstdint>

#include "common/hook_flags.hpp"

namespace mcorecoll {

// For the length of one intercepted call on this thread (MPI_IN_PLACE and MPI_BOTTOM are host
// addresses or null: never device memory).
class CallHooks {
 public:
  CallHooks(const void* first, const void* second);
  ~CallHooks();
  CallHooks(const CallHooks&) = delete;
  CallHooks& operator=(const CallHooks&) = delete;

 private:
  unsigned hooks_;
  std::uint64_t start_ns_ = 0;
};

// `call(args...)` inside CallHooks on buffers `first` and `second` (null where the call has
// fewer).
template <typename Call, typename... Args>
[[gnu::cold, gnu::noinline]] int call_with_hooks(const void* first, const void* second, Call call, Args... args) {
  const CallHooks hooks{first, second};
  return call(args...);
}

// Whether the current call on this thread passed a device buffer, where a GPU runtime is loaded;
// true also for a call that came in before the runtime was found (it was not looked at).
bool call_has_device_buffers();

}  // namespace mcorecoll
