/* Device buffers (issue #42): every intercepted collective that takes a buffer, in its three
 * forms, with stand-in device memory (standin_cuda.h: pages without access rights, so a touch
 * by mcorecoll crashes) on some ranks and host memory on the others. Such a call must go to the
 * MPI library on every rank (the emulated CUDA-aware MPI below mcorecoll counts each rank's
 * calls of PMPI_X) and give the MPI library's own result; with host memory on every rank the
 * blocking and persistent calls must stay on mcorecoll's path (run with every path forced),
 * so that a rule that handed everything to the MPI library would fail here too.
 *
 * Usage: test_device_buffers (np 2 to 64; MCORECOLL_SETUP_AFTER=1 and MCORECOLL_<X>=shm;
 *        TEST_TRACE=1 names each call on stderr). */
#include <mpi.h>
/* PMPI_X: the MPI library's own, past mcorecoll (which serves the PMPI_ names too). */
#include "mpi_library.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "persistent.h"
#include "standin_cuda.h"

long emulated_library_calls(const char* name); /* emulated_cuda_aware.c (generated) */

#if MCORECOLL_PERSISTENT_MPIX
#define PMPI_PERSISTENT_PREFIX "PMPIX_"
#else
#define PMPI_PERSISTENT_PREFIX "PMPI_"
#endif

enum { kInts = 6 }; /* per block */
enum Form { BLOCKING, NONBLOCKING, PERSISTENT, ORACLE };
static const char* const form_names[] = {"blocking", "non-blocking", "persistent"};
enum Memory { HOST, DEVICE, MANAGED };

static int rank_, size_, root_;
/* A persistent barrier of mcorecoll's, started before some blocking calls and completed after
 * them: the agreement must complete it first (it shares the barrier's lines). */
static MPI_Request barrier_ = MPI_REQUEST_NULL;
static int counts_[64], displs_[64];

/* One call of collective c in form f: blocking, posted (*req), initialized (*req), or the
 * MPI library's own (the oracle). */
#define FORMS(X, IX, INIT, ...)                                        \
  do {                                                               \
    switch (f) {                                                     \
      case ORACLE: PMPI_##X(__VA_ARGS__); break;                     \
      case BLOCKING: MPI_##X(__VA_ARGS__); break;                    \
      case NONBLOCKING: MPI_##IX(__VA_ARGS__, req); break;           \
      case PERSISTENT: INIT(__VA_ARGS__, MPI_INFO_NULL, req); break; \
    }                                                                \
  } while (0)

enum { kCollectives = 15 };
static const char* const names[kCollectives] = {
    "Bcast", "Alltoall", "Allreduce", "Reduce", "Allgather", "Alltoallv", "Allgatherv", "Gather",
    "Gatherv", "Scatter", "Scatterv", "Reduce_scatter_block", "Reduce_scatter", "Scan", "Exscan"};

static void call(int c, int f, int* s, int* r, MPI_Request* req) {
  const MPI_Comm w = MPI_COMM_WORLD;
  const MPI_Datatype t = MPI_INT;
  switch (c) {
    case 0: FORMS(Bcast, Ibcast, PERSISTENT_BCAST_INIT, r, kInts * size_, t, root_, w); break;
    case 1: FORMS(Alltoall, Ialltoall, PERSISTENT_ALLTOALL_INIT, s, kInts, t, r, kInts, t, w); break;
    case 2: FORMS(Allreduce, Iallreduce, PERSISTENT_ALLREDUCE_INIT, s, r, kInts, t, MPI_SUM, w); break;
    case 3: FORMS(Reduce, Ireduce, PERSISTENT_REDUCE_INIT, s, r, kInts, t, MPI_SUM, root_, w); break;
    case 4: FORMS(Allgather, Iallgather, PERSISTENT_ALLGATHER_INIT, s, kInts, t, r, kInts, t, w); break;
    case 5:
      FORMS(Alltoallv, Ialltoallv, PERSISTENT_ALLTOALLV_INIT, s, counts_, displs_, t, r, counts_, displs_, t, w);
      break;
    case 6: FORMS(Allgatherv, Iallgatherv, PERSISTENT_ALLGATHERV_INIT, s, kInts, t, r, counts_, displs_, t, w); break;
    case 7: FORMS(Gather, Igather, PERSISTENT_GATHER_INIT, s, kInts, t, r, kInts, t, root_, w); break;
    case 8: FORMS(Gatherv, Igatherv, PERSISTENT_GATHERV_INIT, s, kInts, t, r, counts_, displs_, t, root_, w); break;
    case 9: FORMS(Scatter, Iscatter, PERSISTENT_SCATTER_INIT, s, kInts, t, r, kInts, t, root_, w); break;
    case 10: FORMS(Scatterv, Iscatterv, PERSISTENT_SCATTERV_INIT, s, counts_, displs_, t, r, kInts, t, root_, w); break;
    case 11:
      FORMS(Reduce_scatter_block, Ireduce_scatter_block, PERSISTENT_REDUCE_SCATTER_BLOCK_INIT, s, r, kInts, t,
            MPI_SUM, w);
      break;
    case 12: FORMS(Reduce_scatter, Ireduce_scatter, PERSISTENT_REDUCE_SCATTER_INIT, s, r, counts_, t, MPI_SUM, w); break;
    case 13: FORMS(Scan, Iscan, PERSISTENT_SCAN_INIT, s, r, kInts, t, MPI_SUM, w); break;
    case 14: FORMS(Exscan, Iexscan, PERSISTENT_EXSCAN_INIT, s, r, kInts, t, MPI_SUM, w); break;
  }
}

/* Which memory each rank's send and receive buffers are in, per pattern. */
enum { kPatterns = 6 };
static const char* const pattern_names[kPatterns] = {
    "host everywhere", "device on the first rank", "device on the last rank", "device everywhere",
    "managed on the first rank", "device send buffer on the first rank, device receive buffer on the last"};
static void pattern(int p, int rank, int* send, int* recv) {
  const int first = rank == 0, last = rank == size_ - 1;
  *send = *recv = HOST;
  switch (p) {
    case 1: if (first) *send = *recv = DEVICE; break;
    case 2: if (last) *send = *recv = DEVICE; break;
    case 3: *send = *recv = DEVICE; break;
    case 4: if (first) *send = *recv = MANAGED; break;
    case 5: if (first) *send = DEVICE; if (last) *recv = DEVICE; break;
  }
}

/* The MPI library's function that mcorecoll hands collective c in form f to. */
static const char* library_name(int c, int f) {
  static char name[64];
  const char* x = names[c];
  if (f == BLOCKING) snprintf(name, sizeof name, "PMPI_%s", x);
  else if (f == NONBLOCKING) snprintf(name, sizeof name, "PMPI_I%c%s", x[0] - 'A' + 'a', x + 1);
  else snprintf(name, sizeof name, PMPI_PERSISTENT_PREFIX "%s_init", x);
  return name;
}

static int* alloc(int memory, size_t bytes) {
  int* p = memory == HOST ? malloc(bytes) : standin_device_alloc(bytes, memory == MANAGED);
  if (!p) {
    fprintf(stderr, "test_device_buffers: no memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return p;
}
static void release(int memory, int* p) {
  if (memory == HOST) free(p);
  else standin_device_free(p);
}

/* The call's data: send blocks from this rank, the receive buffer a pattern (the root's the
 * bcast's data). */
static void fill(int* s, int* r, int ints, int salt) {
  for (int i = 0; i < ints; i++) s[i] = rank_ * 1000 + i + salt;
  memset(r, 0x5A, (size_t)ints * sizeof(int));
  if (rank_ == root_)
    for (int i = 0; i < ints; i++) r[i] = 7 * i + salt;
}

/* Collective c in form f with the memory of pattern p: the MPI library's result, and with
 * `check_path`, the path the pattern and form call for on every rank. */
static void one(int c, int f, int p, int check_path, int salt) {
  const int ints = kInts * size_;
  const size_t bytes = (size_t)ints * sizeof(int);
  int send_memory, recv_memory, any_device = 0;
  for (int q = 0; q < size_; q++) {
    int a, b;
    pattern(p, q, &a, &b);
    any_device |= a != HOST || b != HOST;
  }
  pattern(p, rank_, &send_memory, &recv_memory);

  /* The oracle: the MPI library alone, on host memory holding the same data. */
  MPI_Request req = MPI_REQUEST_NULL;
  int* s_host = alloc(HOST, bytes);
  int* expected = alloc(HOST, bytes);
  fill(s_host, expected, ints, salt);
  call(c, ORACLE, s_host, expected, &req);

  int* s = alloc(send_memory, bytes);
  int* r = alloc(recv_memory, bytes);
  standin_open_device_memory(); /* the test writes its data, as cudaMemcpy would */
  fill(s, r, ints, salt);
  standin_close_device_memory();

  /* From here on device memory is closed, except while the MPI library runs. */
  const char* library = library_name(c, f);
  if (getenv("TEST_TRACE")) fprintf(stderr, "rank %d: %s %s %s\n", rank_, names[c], form_names[f], pattern_names[p]);
  const int barrier_pending = barrier_ != MPI_REQUEST_NULL && f == BLOCKING && salt % 2;
  if (barrier_pending) {
    const long starts = emulated_library_calls("PMPI_Start");
    MPI_Start(&barrier_);
    CHECK(emulated_library_calls("PMPI_Start") == starts, "the persistent barrier is the MPI library's");
  }
  const long before = emulated_library_calls(library);
  call(c, f, s, r, &req);
  if (f == PERSISTENT) {
    standin_close_device_memory();  /* an initialization moves no data */
    MPI_Start(&req);
  }
  /* A posted or started call of the MPI library's moves data until it completes. */
  if (f != BLOCKING) MPI_Wait(&req, MPI_STATUS_IGNORE);
  standin_close_device_memory();
  if (f == PERSISTENT) MPI_Request_free(&req);
  const long handed = emulated_library_calls(library) - before;
  if (barrier_pending) MPI_Wait(&barrier_, MPI_STATUS_IGNORE);
  /* Non-blocking calls go to the MPI library wherever a GPU runtime is loaded (they may not
   * wait for the ranks to agree). */
  const int to_library = any_device || f == NONBLOCKING;
  if (check_path)
    CHECK(handed == to_library, "MPI_%s, %s, %s: %ld calls of %s on rank %d, expected %d", names[c], form_names[f],
          pattern_names[p], handed, library, rank_, to_library);

  standin_open_device_memory();
  CHECK(memcmp(r, expected, bytes) == 0, "MPI_%s, %s, %s: rank %d's receive buffer differs from the MPI library's",
        names[c], form_names[f], pattern_names[p], rank_);
  standin_close_device_memory();
  release(send_memory, s);
  release(recv_memory, r);
  free(s_host);
  free(expected);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  root_ = size_ - 1;
  if (size_ < 2 || size_ > 64) {
    if (rank_ == 0) fprintf(stderr, "test_device_buffers: np 2 to 64\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (int q = 0; q < size_; q++) counts_[q] = kInts, displs_[q] = q * kInts;
  /* A first round sets the communicator and its shared memory up (the MPI library's own
   * collectives, counted too), then every pattern: the host-only one first, then the others
   * with the host-only one again between them, which must find mcorecoll's path again. */
  int salt = 0;
  for (int c = 0; c < kCollectives; c++)
    for (int f = BLOCKING; f <= PERSISTENT; f++) one(c, f, 0, 0, ++salt);
  PERSISTENT_BARRIER_INIT(MPI_COMM_WORLD, MPI_INFO_NULL, &barrier_);
  for (int p = 0; p < kPatterns; p++)
    for (int c = 0; c < kCollectives; c++)
      for (int f = BLOCKING; f <= PERSISTENT; f++) {
        one(c, f, p, 1, ++salt);
        if (p > 0) one(c, f, 0, 1, ++salt);
      }
  MPI_Request_free(&barrier_);
  const long queries = standin_pointer_queries();
  CHECK(queries > 0, "mcorecoll never asked the stand-in driver about a buffer");
  return check_finish("test_device_buffers");
}
