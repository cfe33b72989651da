#include "common/device_memory.hpp"

#include <dlfcn.h>
#include <link.h>

#include <cstddef>
#include <cstdint>
#include <mutex>

namespace mcorecoll {

namespace {

// CUDA driver API (cuda.h): CUresult cuPointerGetAttributes(unsigned int, CUpointer_attribute*,
// void**, CUdeviceptr). Unlike cuPointerGetAttribute it answers for any address: one the
// driver does not know gets type 0 and CUDA_SUCCESS.
using CuPointerGetAttributes = int (*)(unsigned, int*, void**, unsigned long long);
constexpr int kCuAttributeMemoryType = 2;  // CU_POINTER_ATTRIBUTE_MEMORY_TYPE
constexpr int kCuAttributeIsManaged = 8;   // CU_POINTER_ATTRIBUTE_IS_MANAGED
constexpr unsigned kCuMemoryTypeDevice = 2;

// HIP (hip_runtime_api.h): hipError_t hipPointerGetAttributes(hipPointerAttribute_t*, const
// void*), whose struct begins with the memory type; its values changed in ROCm 6 (Device 2,
// Managed 3, Array 10, Unified 11; ROCm 5: Device 1, Array 2, Unified 3) and ROCm 5 answers
// an unknown address with an error.
using HipPointerGetAttributes = int (*)(void*, const void*);
using HipRuntimeGetVersion = int (*)(int*);
struct HipPointerAttributes {
  int type;
  int device;
  void* device_pointer;
  void* host_pointer;
  int is_managed;
  unsigned allocation_flags;
  char room[64];  // whatever later releases append
};

std::atomic<CuPointerGetAttributes> cuda_attributes{nullptr};
std::atomic<HipPointerGetAttributes> hip_attributes{nullptr};
std::atomic<bool> hip_6{false};

// The handle of `soname` if the process has loaded it (counted: it stays loaded).
void* loaded(const char* soname) { return dlopen(soname, RTLD_LAZY | RTLD_NOLOAD); }

bool cuda_device(CuPointerGetAttributes query, const void* p) {
  unsigned type = 0;
  unsigned managed = 0;  // the driver writes a bool: its first byte
  int attributes[2] = {kCuAttributeMemoryType, kCuAttributeIsManaged};
  void* data[2] = {&type, &managed};
  if (query(2, attributes, data, reinterpret_cast<std::uintptr_t>(p)) != 0) return false;
  return type == kCuMemoryTypeDevice || (managed & 0xff) != 0;
}

bool hip_device(HipPointerGetAttributes query, const void* p) {
  HipPointerAttributes a{};
  if (query(&a, p) != 0) return false;
  if (a.is_managed) return true;
  if (hip_6.load(std::memory_order_relaxed)) return a.type == 2 || a.type == 3 || a.type == 10 || a.type == 11;
  return a.type == 1 || a.type == 2 || a.type == 3;
}

// Objects the process has loaded so far (glibc's count, which only grows): one call of the
// iterator, stopped at the first object.
unsigned long long objects_loaded() {
  unsigned long long adds = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t size, void* out) {
        if (size >= offsetof(dl_phdr_info, dlpi_adds) + sizeof(info->dlpi_adds))
          *static_cast<unsigned long long*>(out) = info->dlpi_adds;
        return 1;
      },
      &adds);
  return adds;
}

}  // namespace

bool look_for_gpu_runtime() {
  static std::mutex lock;
  const std::lock_guard<std::mutex> hold(lock);
  // Nothing loaded since the last look: the same answer (dlopen of a name not loaded searches
  // the library path, tens of microseconds; a duplication looks every time).
  static unsigned long long looked_at = 0;
  const unsigned long long adds = objects_loaded();
  if (adds != 0 && adds == looked_at) return cuda_attributes.load() || hip_attributes.load();
  looked_at = adds;
  if (!cuda_attributes.load()) {
    if (void* cuda = loaded("libcuda.so.1")) {
      if (void* f = dlsym(cuda, "cuPointerGetAttributes"))
        cuda_attributes.store(reinterpret_cast<CuPointerGetAttributes>(f));
    }
  }
  if (!hip_attributes.load()) {
    static const char* const kHipSonames[] = {"libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so"};
    for (const char* soname : kHipSonames) {
      void* hip = loaded(soname);
      if (!hip) continue;
      void* f = dlsym(hip, "hipPointerGetAttributes");
      void* v = dlsym(hip, "hipRuntimeGetVersion");
      int version = 0;
      if (f && v && reinterpret_cast<HipRuntimeGetVersion>(v)(&version) == 0) {
        hip_6.store(version >= 60000000);
        hip_attributes.store(reinterpret_cast<HipPointerGetAttributes>(f));
        break;
      }
    }
  }
  const bool any = cuda_attributes.load() || hip_attributes.load();
  if (any) enable_call_hook(kHookDeviceBuffers);
  return any;
}

const char* gpu_runtime_name() {
  if (cuda_attributes.load(std::memory_order_relaxed)) return hip_attributes.load(std::memory_order_relaxed) ? "CUDA and ROCm" : "CUDA";
  return hip_attributes.load(std::memory_order_relaxed) ? "ROCm" : "";
}

bool device_memory(const void* p) {
  if (!p) return false;
  if (CuPointerGetAttributes cuda = cuda_attributes.load(std::memory_order_acquire))
    if (cuda_device(cuda, p)) return true;
  if (HipPointerGetAttributes hip = hip_attributes.load(std::memory_order_acquire))
    if (hip_device(hip, p)) return true;
  return false;
}

}  // namespace mcorecoll
