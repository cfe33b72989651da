/* Non-blocking collectives: latency and overlap, through mcorecoll (MPI_Ixxx + MPI_Wait) and
 * through the MPI library's own (PMPI_Ixxx + PMPI_Wait), in the same run, measured the way the
 * OSU non-blocking benchmarks measure them:
 *   pure     post + wait, nothing between (the non-blocking latency)
 *   blocking the blocking call (MPI_X or PMPI_X), for comparison
 *   total    post, compute for `pure` microseconds without an MPI call, wait
 *   overlap  100 * (1 - (total - compute) / pure), at least 0: the share of the collective
 *            that moved while the rank computed
 * The progress mode of mcorecoll is MCORECOLL_PROGRESS (calls or thread); the program asks for
 * MPI_THREAD_MULTIPLE so that the thread may run. One CSV line per collective, size and side.
 * Usage: mcorecoll_overlap [--op bcast|alltoall|barrier] [--min BYTES] [--max BYTES] [--iters N] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Busy for `seconds`, no MPI call: the application's computation. */
static void compute(double seconds) {
  const double end = now() + seconds;
  volatile double x = 1.0;
  while (now() < end)
    for (int i = 0; i < 64; i++) x = x * 1.0000001 + 1e-9;
}

typedef enum { kBarrier, kBcast, kAlltoall } op_t;

static char *sendbuf, *recvbuf;

static void post(op_t op, int lib, size_t bytes, MPI_Request* r) {
  switch (op) {
    case kBarrier: lib ? MPI_Ibarrier(MPI_COMM_WORLD, r) : PMPI_Ibarrier(MPI_COMM_WORLD, r); break;
    case kBcast:
      lib ? MPI_Ibcast(recvbuf, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD, r)
          : PMPI_Ibcast(recvbuf, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD, r);
      break;
    case kAlltoall:
      lib ? MPI_Ialltoall(sendbuf, (int)bytes, MPI_BYTE, recvbuf, (int)bytes, MPI_BYTE, MPI_COMM_WORLD, r)
          : PMPI_Ialltoall(sendbuf, (int)bytes, MPI_BYTE, recvbuf, (int)bytes, MPI_BYTE, MPI_COMM_WORLD, r);
      break;
  }
}

static void blocking(op_t op, int lib, size_t bytes) {
  switch (op) {
    case kBarrier: lib ? MPI_Barrier(MPI_COMM_WORLD) : PMPI_Barrier(MPI_COMM_WORLD); break;
    case kBcast:
      lib ? MPI_Bcast(recvbuf, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD)
          : PMPI_Bcast(recvbuf, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
      break;
    case kAlltoall:
      lib ? MPI_Alltoall(sendbuf, (int)bytes, MPI_BYTE, recvbuf, (int)bytes, MPI_BYTE, MPI_COMM_WORLD)
          : PMPI_Alltoall(sendbuf, (int)bytes, MPI_BYTE, recvbuf, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
      break;
  }
}

static void wait_for(int lib, MPI_Request* r) { lib ? MPI_Wait(r, MPI_STATUS_IGNORE) : PMPI_Wait(r, MPI_STATUS_IGNORE); }

/* Mean microseconds per call over `iters`, the slowest rank's. `what`: 0 blocking, 1 post +
 * wait, 2 post + compute(`work`) + wait; *cpu gets the mean compute time. */
static double timed(op_t op, int lib, size_t bytes, int iters, int what, double work, double* cpu) {
  PMPI_Barrier(MPI_COMM_WORLD);
  double computing = 0;
  const double t0 = now();
  for (int i = 0; i < iters; i++) {
    if (what == 0) {
      blocking(op, lib, bytes);
      continue;
    }
    MPI_Request r;
    post(op, lib, bytes, &r);
    if (what == 2) {
      const double c0 = now();
      compute(work);
      computing += now() - c0;
    }
    wait_for(lib, &r);
  }
  double mine = (now() - t0) / iters * 1e6, slowest = 0;
  PMPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (cpu) *cpu = computing / iters * 1e6;
  return slowest;
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  op_t op = kBcast;
  size_t min = 8, max = 4u << 20;
  int iters = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--op")) op = !strcmp(argv[i + 1], "barrier") ? kBarrier : !strcmp(argv[i + 1], "alltoall") ? kAlltoall : kBcast;
    else if (!strcmp(argv[i], "--min")) min = strtoull(argv[i + 1], NULL, 10);
    else if (!strcmp(argv[i], "--max")) max = strtoull(argv[i + 1], NULL, 10);
    else if (!strcmp(argv[i], "--iters")) iters = atoi(argv[i + 1]);
  }
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* progress = getenv("MCORECOLL_PROGRESS");
  const size_t span = op == kAlltoall ? max * (size_t)size : max;
  sendbuf = malloc(span + 1);
  recvbuf = malloc(span + 1);
  memset(sendbuf, 1, span + 1);
  memset(recvbuf, 2, span + 1);
  static const char* names[] = {"ibarrier", "ibcast", "ialltoall"};
  if (rank == 0)
    printf("op,bytes,ranks,progress,side,blocking_us,pure_us,total_us,compute_us,overlap_pct\n");
  if (op == kBarrier) min = max = 0;
  for (size_t bytes = min; bytes <= max; bytes = bytes ? bytes * 4 : max + 1) {
    const int n = iters > 0 ? iters : bytes <= 65536 ? 400 : bytes <= (1u << 20) ? 60 : 15;
    for (int lib = 0; lib <= 1; lib++) {
      timed(op, lib, bytes, n / 10 + 1, 1, 0, NULL);  /* warm up */
      const double block = timed(op, lib, bytes, n, 0, 0, NULL);
      const double pure = timed(op, lib, bytes, n, 1, 0, NULL);
      double cpu = 0;
      const double total = timed(op, lib, bytes, n, 2, pure * 1e-6, &cpu);
      double overlap = 100.0 * (1.0 - (total - cpu) / pure);
      if (overlap < 0) overlap = 0;
      if (rank == 0)
        printf("%s,%zu,%d,%s,%s,%.2f,%.2f,%.2f,%.2f,%.1f\n", names[op], bytes, size,
               progress ? progress : "calls", lib ? "mcorecoll" : "pmpi", block, pure, total, cpu, overlap);
    }
  }
  free(sendbuf);
  free(recvbuf);
  MPI_Finalize();
  return 0;
}
