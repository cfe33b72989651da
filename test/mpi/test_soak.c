/* Soak: many mixed collectives (barrier, bcast, alltoall), sizes drawn across the shared-memory
 * and PMPI ranges, on several communicators, every result checked. The same sequence runs twice:
 * first through PMPI_* alone, then through MPI_* (mcorecoll). The resident memory of the second
 * run may not grow between its first tenth and its end by more than 1 MiB beyond what the
 * first run grew: the MPI library's own growth (MPICH 4.0.2: 1.4-2.1 MB per rank in 100000
 * calls at np 16) is not ours.
 * Usage: test_soak [calls]   (default 1000000, per run) */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { kComms = 3, kMaxBlock = 32768, kMaxBcast = 65536 };

/* The same pseudo-random sequence on every rank, so that all call the same collective. */
static uint64_t next(uint64_t* state) {
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return *state;
}

static unsigned char pattern(int a, int b, size_t i, long call) {
  return (unsigned char)(a * 41 + b * 13 + i * 3 + (size_t)call * 7);
}

/* Mostly small sizes, sometimes large ones (which go to PMPI by default). */
static size_t draw_size(uint64_t* state, size_t max) {
  const uint64_t r = next(state);
  if (r % 16 == 0) return (size_t)(r >> 8) % max + 1;
  return (size_t)(r >> 8) % 512;
}

/* The collectives one run calls: MPI_* or PMPI_*. */
typedef struct {
  int (*barrier)(MPI_Comm);
  int (*bcast)(void*, int, MPI_Datatype, int, MPI_Comm);
  int (*alltoall)(const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm);
} calls_t;

static void one_call(const calls_t* use, MPI_Comm comm, long call, uint64_t* state, unsigned char* a,
                     unsigned char* b) {
  int n, me;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &me);
  const int kind = (int)(next(state) % 3);
  if (kind == 0) {
    CHECK(use->barrier(comm) == MPI_SUCCESS, "barrier");
  } else if (kind == 1) {
    const size_t bytes = draw_size(state, kMaxBcast);
    const int root = (int)(next(state) % (uint64_t)n);
    for (size_t i = 0; i < bytes; i++) a[i] = me == root ? pattern(root, 0, i, call) : 0;
    CHECK(use->bcast(a, (int)bytes, MPI_BYTE, root, comm) == MPI_SUCCESS, "bcast");
    for (size_t i = 0; i < bytes; i++)
      if (a[i] != pattern(root, 0, i, call)) {
        CHECK(0, "call %ld: bcast of %zu bytes from %d wrong at %zu", call, bytes, root, i);
        break;
      }
  } else {
    const size_t block = draw_size(state, kMaxBlock);
    for (int p = 0; p < n; p++)
      for (size_t i = 0; i < block; i++) a[p * block + i] = pattern(me, p, i, call);
    CHECK(use->alltoall(a, (int)block, MPI_BYTE, b, (int)block, MPI_BYTE, comm) == MPI_SUCCESS, "alltoall");
    for (int p = 0; p < n; p++)
      for (size_t i = 0; i < block; i++)
        if (b[p * block + i] != pattern(p, me, i, call)) {
          CHECK(0, "call %ld: alltoall block of %zu bytes from %d wrong at %zu", call, block, p, i);
          p = n;
          break;
        }
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const long calls = argc > 1 ? atol(argv[1]) : 1000000;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm comms[kComms] = {MPI_COMM_WORLD};
  MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]);
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &comms[2]);  /* ranks reversed */
  unsigned char* a = malloc((size_t)size * kMaxBlock + kMaxBcast);
  unsigned char* b = malloc((size_t)size * kMaxBlock);
  const calls_t through[2] = {{PMPI_Barrier, PMPI_Bcast, PMPI_Alltoall}, {MPI_Barrier, MPI_Bcast, MPI_Alltoall}};
  long growth[2] = {0, 0}, rss_end = 0;
  for (int run = 0; run < 2; run++) {
    uint64_t state = 0x9e3779b97f4a7c15ull;
    long rss_early = 0;
    for (long call = 0; call < calls; call++) {
      if (call == calls / 10) rss_early = resident_kib();
      one_call(&through[run], comms[next(&state) % kComms], call, &state, a, b);
      if (check_failures > 10) break;  /* enough said */
    }
    rss_end = resident_kib();
    growth[run] = rss_end - rss_early;
  }
  /* A leak of even 8 bytes per call would grow the first tenth's resident set by ~7 MB. */
  CHECK(getenv("TEST_SKIP_RSS_CHECK") || growth[1] <= growth[0] + 1024,
        "resident memory grew by %ld KiB through mcorecoll, %ld KiB through PMPI alone", growth[1], growth[0]);
  if (rank == 0)
    printf("test_soak: %ld calls per run; resident memory grew by %ld KiB through PMPI alone, by %ld KiB "
           "through mcorecoll (after the first tenth of each run); %ld KiB at the end\n",
           calls, growth[0], growth[1], rss_end);
  free(a);
  free(b);
  MPI_Comm_free(&comms[1]);
  MPI_Comm_free(&comms[2]);
  return check_finish("test_soak");
}
