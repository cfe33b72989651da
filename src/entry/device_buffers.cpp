#include "entry/device_buffers.hpp"

namespace mcorecoll {
namespace {
// Per thread: an MPI_THREAD_MULTIPLE program calls collectives on several communicators at once.
thread_local bool t_device_buffers = false;
}  // namespace

DeviceBufferCheck::DeviceBufferCheck(const void* first, const void* second) {
  t_device_buffers = device_memory(first) || device_memory(second);
}

DeviceBufferCheck::~DeviceBufferCheck() { t_device_buffers = false; }

bool call_has_device_buffers() { return gpu_runtime_loaded() && t_device_buffers; }

}  // namespace mcorecoll
