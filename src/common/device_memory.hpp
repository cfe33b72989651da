// Whether a buffer lies in a GPU's memory, asked of the GPU runtime the process has already
// loaded: CUDA's driver (libcuda.so.1, cuPointerGetAttributes) or ROCm's HIP runtime
// (libamdhip64.so, hipPointerGetAttributes). Neither is linked nor ever loaded by mcorecoll: a
// program without one pays one relaxed load and a branch per call (hook_flags.hpp).
//
// A CUDA-aware MPI loads its runtime in MPI_Init (Open MPI's accelerator framework and UCX
// open the CUDA driver there, MPICH's GPU support initialises CUDA), and a program must have
// loaded one before it holds a device pointer; mcorecoll looks at MPI_Init and again at every
// communicator's set-up.
#pragma once

#include "common/hook_flags.hpp"

namespace mcorecoll {

// Looks for a GPU runtime among the libraries the process has loaded (dlopen RTLD_NOLOAD:
// never loads one) and keeps it loaded once found. Returns gpu_runtime_loaded().
bool look_for_gpu_runtime();

inline bool gpu_runtime_loaded() { return (call_hooks_acquire() & kHookDeviceBuffers) != 0; }

// "CUDA", "ROCm", or "" while none is loaded.
const char* gpu_runtime_name();

// Whether `p` lies in device or managed memory. False without a runtime, for null, and for
// addresses the runtime does not know (host memory, pinned host memory included).
bool device_memory(const void* p);

}  // namespace mcorecoll
