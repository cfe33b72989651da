// What the generated entry points do around a call besides routing it, kept off their common
// path: a look at its buffers where a GPU runtime is loaded (device_memory.hpp), its time where
// the statistics are on (MCORECOLL_STATS) or a size class is learning which path is the faster
// (entry/learning.hpp). One relaxed load and a branch when none is.
#pragma once

#include <atomic>

namespace mcorecoll {

enum CallHook : unsigned { kHookDeviceBuffers = 1, kHookTiming = 2, kHookLearning = 4 };

namespace detail {
extern std::atomic<unsigned> g_call_hooks;
}

// Relaxed: the entry points' branch. A hook's own code reads the flags with call_hooks_acquire(),
// so that it sees what was made ready before enable_call_hook() (a runtime's functions).
inline unsigned call_hooks() { return detail::g_call_hooks.load(std::memory_order_relaxed); }
inline unsigned call_hooks_acquire() { return detail::g_call_hooks.load(std::memory_order_acquire); }
inline void enable_call_hook(CallHook hook) { detail::g_call_hooks.fetch_or(hook, std::memory_order_release); }
inline void disable_call_hook(CallHook hook) { detail::g_call_hooks.fetch_and(~static_cast<unsigned>(hook)); }

}  // namespace mcorecoll
