// Real device buffers (issue #42), for a machine with an NVIDIA GPU: MPI_Bcast and
// MPI_Allreduce on cudaMalloc'd and cudaMallocManaged memory, mixed with host memory across
// ranks, with mcorecoll loaded. The MPI libraries here are not CUDA-aware: this program
// emulates one by defining PMPI_Bcast and PMPI_Allreduce itself (the executable's symbols come
// first, so mcorecoll's hand-offs reach them), copying device data through host memory around
// the MPI library's own. Every result is checked on the host.
//
// Usage: test_cuda_buffers (np 2 or more; MCORECOLL_SETUP_AFTER=1, MCORECOLL_BCAST=shm,
//        MCORECOLL_ALLREDUCE=shm, MCORECOLL_VERBOSE=1). Exits 77 without a GPU.
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

bool on_device(const void* p) {
  cudaPointerAttributes a{};
  return p && cudaPointerGetAttributes(&a, p) == cudaSuccess &&
         (a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged);
}

// A contiguous buffer of `count` elements of `type`: a host copy while the MPI library runs.
struct Staged {
  Staged(void* user, int count, MPI_Datatype type, bool copy_in) : user_(user) {
    int size = 0;
    PMPI_Type_size(type, &size);
    bytes_ = static_cast<size_t>(count) * static_cast<size_t>(size);
    if (!on_device(user) || user == MPI_IN_PLACE) return;
    host_.resize(bytes_);
    if (copy_in) cudaMemcpy(host_.data(), user, bytes_, cudaMemcpyDefault);
  }
  void* buffer() { return host_.empty() ? user_ : host_.data(); }
  void copy_out() {
    if (!host_.empty()) cudaMemcpy(user_, host_.data(), bytes_, cudaMemcpyDefault);
  }
  void* user_;
  size_t bytes_ = 0;
  std::vector<char> host_;
};

int calls_with_device = 0;

}  // namespace

// The emulated CUDA-aware MPI library.
extern "C" int PMPI_Bcast(void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  static auto next = reinterpret_cast<int (*)(void*, int, MPI_Datatype, int, MPI_Comm)>(dlsym(RTLD_NEXT, "PMPI_Bcast"));
  Staged b(buffer, count, type, true);
  calls_with_device += !b.host_.empty();
  const int rc = next(b.buffer(), count, type, root, comm);
  b.copy_out();
  return rc;
}

extern "C" int PMPI_Allreduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  static auto next = reinterpret_cast<int (*)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm)>(
      dlsym(RTLD_NEXT, "PMPI_Allreduce"));
  Staged s(const_cast<void*>(send), count, type, true);
  Staged r(recv, count, type, send == MPI_IN_PLACE);
  calls_with_device += !s.host_.empty() || !r.host_.empty();
  const int rc = next(send == MPI_IN_PLACE ? MPI_IN_PLACE : s.buffer(), r.buffer(), count, type, op, comm);
  r.copy_out();
  return rc;
}

namespace {

enum Memory { kHost, kDevice, kManaged };
const char* const kMemoryNames[] = {"host", "device", "managed"};

int* allocate(Memory m, size_t bytes) {
  void* p = nullptr;
  if (m == kHost) p = malloc(bytes);
  else if (m == kDevice) cudaMalloc(&p, bytes);
  else cudaMallocManaged(&p, bytes);
  return static_cast<int*>(p);
}

void release(Memory m, int* p) {
  if (m == kHost) free(p);
  else cudaFree(p);
}

int failures = 0;

void expect(bool ok, const char* what, Memory m, int rank) {
  if (!ok && failures++ < 10) fprintf(stderr, "rank %d: %s wrong with %s memory\n", rank, what, kMemoryNames[m]);
}

}  // namespace

int main(int argc, char** argv) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    printf("test_cuda_buffers: no GPU here\n");
    return 77;
  }
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  cudaSetDevice(rank % devices);
  const int count = 1000;
  const size_t bytes = count * sizeof(int);
  std::vector<int> host(count);
  // Patterns: host everywhere; device on rank 0; device everywhere; managed on the last rank.
  for (int pattern = 0; pattern < 4; pattern++) {
    const Memory m = pattern == 1 ? (rank == 0 ? kDevice : kHost)
                     : pattern == 2 ? kDevice
                     : pattern == 3 ? (rank == size - 1 ? kManaged : kHost)
                                    : kHost;
    int* a = allocate(m, bytes);
    int* b = allocate(m, bytes);
    for (int i = 0; i < count; i++) host[i] = rank == size - 1 ? 3 * i + pattern : -1;
    cudaMemcpy(a, host.data(), bytes, cudaMemcpyDefault);
    MPI_Bcast(a, count, MPI_INT, size - 1, MPI_COMM_WORLD);
    cudaMemcpy(host.data(), a, bytes, cudaMemcpyDefault);
    bool ok = true;
    for (int i = 0; i < count; i++) ok = ok && host[i] == 3 * i + pattern;
    expect(ok, "MPI_Bcast", m, rank);

    for (int i = 0; i < count; i++) host[i] = rank + i;
    cudaMemcpy(a, host.data(), bytes, cudaMemcpyDefault);
    MPI_Allreduce(a, b, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    cudaMemcpy(host.data(), b, bytes, cudaMemcpyDefault);
    ok = true;
    for (int i = 0; i < count; i++) ok = ok && host[i] == size * (size - 1) / 2 + size * i;
    expect(ok, "MPI_Allreduce", m, rank);
    release(m, a);
    release(m, b);
  }
  int total = 0;
  PMPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("test_cuda_buffers: %s (%d failed checks; %d calls with device memory reached the MPI library on rank 0)\n",
           total ? "FAILED" : "passed", total, calls_with_device);
  MPI_Finalize();
  return total ? 1 : 0;
}
