/* standin_cuda.h says what this is. Not thread-safe: the test that uses it is single-threaded. */
#include "standin_cuda.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_RANGES 64

static struct {
  char* base;
  size_t bytes;
  int managed;
} ranges[MAX_RANGES];
static long queries = 0;

static size_t page_round(size_t bytes) {
  const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  return (bytes + page - 1) / page * page;
}

void* standin_device_alloc(size_t bytes, int managed) {
  const size_t length = page_round(bytes ? bytes : 1);
  for (int i = 0; i < MAX_RANGES; i++) {
    if (ranges[i].base) continue;
    void* p = mmap(NULL, length, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    ranges[i].base = p;
    ranges[i].bytes = length;
    ranges[i].managed = managed;
    return p;
  }
  return NULL;
}

void standin_device_free(void* p) {
  for (int i = 0; i < MAX_RANGES; i++)
    if (ranges[i].base == p) {
      munmap(p, ranges[i].bytes);
      ranges[i].base = NULL;
    }
}

/* The range holding `p`, or -1. */
static int range_of(const void* p) {
  const char* c = (const char*)p;
  for (int i = 0; i < MAX_RANGES; i++)
    if (ranges[i].base && c >= ranges[i].base && c < ranges[i].base + ranges[i].bytes) return i;
  return -1;
}

int standin_is_device(const void* p) { return range_of(p) >= 0; }

static void protect_all(int prot) {
  for (int i = 0; i < MAX_RANGES; i++)
    if (ranges[i].base) mprotect(ranges[i].base, ranges[i].bytes, prot);
}

void standin_open_device_memory(void) { protect_all(PROT_READ | PROT_WRITE); }
void standin_close_device_memory(void) { protect_all(PROT_NONE); }
long standin_pointer_queries(void) { return queries; }

/* CUresult cuPointerGetAttributes(unsigned int, CUpointer_attribute*, void**, CUdeviceptr):
 * CU_POINTER_ATTRIBUTE_MEMORY_TYPE (2) answers CU_MEMORYTYPE_DEVICE (2) in a device range,
 * CU_MEMORYTYPE_HOST (1) in a managed one, 0 elsewhere (as the driver does for addresses it does
 * not know); CU_POINTER_ATTRIBUTE_IS_MANAGED (8) a bool. Other attributes:
 * CUDA_ERROR_INVALID_VALUE (1). */
int cuPointerGetAttributes(unsigned count, const int* attributes, void** data, unsigned long long pointer) {
  queries++;
  const int r = range_of((const void*)(uintptr_t)pointer);
  const int managed = r >= 0 && ranges[r].managed;
  for (unsigned i = 0; i < count; i++) {
    if (attributes[i] == 2) *(unsigned*)data[i] = r < 0 ? 0u : managed ? 1u : 2u;
    else if (attributes[i] == 8) *(unsigned char*)data[i] = (unsigned char)managed;
    else return 1;
  }
  return 0;
}
