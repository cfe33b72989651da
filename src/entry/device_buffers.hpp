// A call's buffers in GPU memory. Where a GPU runtime is loaded (gpu_runtime_loaded(): one
// branch otherwise), the generated entry points look before anything else runs, and the
// routing reads the answer (call_decision.cpp): a call whose buffer is device memory on any
// rank goes to the MPI library on every rank, which knows how to move it; mcorecoll's paths
// read and write buffers with the CPU.
#pragma once

#include "common/device_memory.hpp"

namespace mcorecoll {

// For the length of one intercepted call on this thread: whether its send or receive buffer
// is device memory (MPI_IN_PLACE and MPI_BOTTOM are host addresses or null: not).
class DeviceBufferCheck {
 public:
  explicit DeviceBufferCheck(const void* first, const void* second = nullptr);
  ~DeviceBufferCheck();
  DeviceBufferCheck(const DeviceBufferCheck&) = delete;
  DeviceBufferCheck& operator=(const DeviceBufferCheck&) = delete;
};

// `call(args...)` after a look at buffers `first` and `second`: the entry points' path where a
// GPU runtime is loaded, out of line, so that the common path keeps its tail call and its
// registers (one load and one branch more than without the look, measured with callgrind:
// bench/handoff/).
template <typename Call, typename... Args>
[[gnu::cold, gnu::noinline]] int call_looking_at(const void* first, const void* second, Call call, Args... args) {
  const DeviceBufferCheck check{first, second};
  return call(args...);
}

// Whether the current call on this thread passed a device buffer.
bool call_has_device_buffers();

}  // namespace mcorecoll
