/* Non-blocking and persistent collectives: latency and overlap, through mcorecoll (MPI_X) and
 * through the MPI library's own (PMPI_X), in the same run, measured the way the OSU
 * non-blocking benchmarks measure them:
 *   blocking the blocking call, for comparison
 *   pure     start + wait, nothing between: MPI_Ixxx + MPI_Wait (--form nonblocking) or, on a
 *            request initialized once per size, MPI_Start + MPI_Wait (--form persistent)
 *   total    start, compute for `pure` microseconds without an MPI call, wait
 *   overlap  100 * (1 - (total - compute) / pure), at least 0: the share of the collective that
 *            moved while the rank computed
 * Each figure is the median over --rounds rounds (default 7) of the slowest rank's mean per
 * call, the two sides alternating A B B A between rounds so that drift hits both alike; pure
 * also as pure_mean_us, the mean over ranks of each rank's own mean. The mcorecoll line also
 * gives vs_blocking (its pure / its blocking), vs_mpi (its pure / the MPI library's pure) and
 * vs_mpi_mean (the same of pure_mean_us), the medians of the per-round ratios.
 * The program asks for MPI_THREAD_MULTIPLE (--thread single: MPI_THREAD_SINGLE, which communicators
 * across nodes need under Open MPI 4.1); mcorecoll's progress mode is MCORECOLL_PROGRESS.
 * allreduce and reduce (root 0) are of MPI_DOUBLE with MPI_SUM (BYTES / 8 of them), allgather
 * of BYTES per rank; the collectives taken inside one node: gather and scatter (root 0),
 * allgatherv and alltoallv of BYTES per rank, scan of BYTES / 8 doubles, reduce_scatter_block
 * of BYTES / 8 doubles in all (MPI_SUM).
 * Usage: mcorecoll_overlap [--op bcast|alltoall|barrier|allreduce|reduce|allgather|gather|scatter|
 *                                allgatherv|alltoallv|scan|reduce_scatter_block]
 *                          [--form nonblocking|persistent] [--thread multiple|single]
 *                          [--min BYTES] [--max BYTES] [--iters N] [--rounds R]
 *                          [--blocking no] [--meet yes]
 * --blocking no: the blocking call is not measured (blocking_us 0), so that the communicator
 * sees only the non-blocking (or persistent) form: learning in the run then explores and agrees
 * on those calls alone (doc/design/decisions.md), inside the warm-up's calls.
 * --meet yes: one MPI_Barrier through mcorecoll after each size's warm-up, as OSU's benchmarks
 * make between sizes: across nodes, where the ranks of a class explored by non-blocking calls
 * agree (a meeting), so that the rounds measure the path agreed on. */
#include <mpi.h>
/* PMPI_X: the MPI library's own, past mcorecoll (which serves the PMPI_ names too). */
#include "mpi_library.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if MCORECOLL_PERSISTENT_MPIX /* Open MPI 4.1: the pcollreq extension (meson.build) */
#include <mpi-ext.h>
#define PBARRIER_INIT PMPIX_Barrier_init
#define PBCAST_INIT PMPIX_Bcast_init
#define PALLTOALL_INIT PMPIX_Alltoall_init
#define PALLREDUCE_INIT PMPIX_Allreduce_init
#define PREDUCE_INIT PMPIX_Reduce_init
#define PALLGATHER_INIT PMPIX_Allgather_init
#define LBARRIER_INIT MPIX_Barrier_init
#define LBCAST_INIT MPIX_Bcast_init
#define LALLTOALL_INIT MPIX_Alltoall_init
#define LALLREDUCE_INIT MPIX_Allreduce_init
#define LREDUCE_INIT MPIX_Reduce_init
#define LALLGATHER_INIT MPIX_Allgather_init
#else
#define PBARRIER_INIT PMPI_Barrier_init
#define PBCAST_INIT PMPI_Bcast_init
#define PALLTOALL_INIT PMPI_Alltoall_init
#define LBARRIER_INIT MPI_Barrier_init
#define LBCAST_INIT MPI_Bcast_init
#define LALLTOALL_INIT MPI_Alltoall_init
#define PALLREDUCE_INIT PMPI_Allreduce_init
#define PREDUCE_INIT PMPI_Reduce_init
#define PALLGATHER_INIT PMPI_Allgather_init
#define LALLREDUCE_INIT MPI_Allreduce_init
#define LREDUCE_INIT MPI_Reduce_init
#define LALLGATHER_INIT MPI_Allgather_init
#endif

enum { kMaxRounds = 31 };

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

typedef enum {
  kBarrier, kBcast, kAlltoall, kAllreduce, kReduce, kAllgather,
  kGather, kScatter, kAllgatherv, kAlltoallv, kScan, kReduceScatterBlock, kMaxOp
} op_t;
static const char* names[] = {"barrier", "bcast",      "alltoall",  "allreduce", "reduce", "allgather",
                              "gather",  "scatter",    "allgatherv", "alltoallv", "scan",   "reduce_scatter_block"};

static char *sendbuf, *recvbuf;
static int nranks, *counts, *displs;  /* the v-forms: a block of BYTES per rank, in rank order */

#if MCORECOLL_PERSISTENT_MPIX
#define LINIT(x) MPIX_##x##_init
#define PINIT(x) PMPIX_##x##_init
#else
#define LINIT(x) MPI_##x##_init
#define PINIT(x) PMPI_##x##_init
#endif
/* One of the collectives taken inside one node: `form` 0 blocking, 1 non-blocking, 2 the
 * persistent initialization; through mcorecoll (`lib`) or the MPI library. */
#define FORMS(name, iname, ...)                                                                  \
  (form == 0 ? (lib ? MPI_##name(__VA_ARGS__) : PMPI_##name(__VA_ARGS__))                        \
   : form == 1 ? (lib ? MPI_##iname(__VA_ARGS__, r) : PMPI_##iname(__VA_ARGS__, r))              \
               : (lib ? LINIT(name)(__VA_ARGS__, MPI_INFO_NULL, r) : PINIT(name)(__VA_ARGS__, MPI_INFO_NULL, r)))
static void node_only(op_t op, int lib, int form, size_t bytes, MPI_Request* r) {
  const int n = (int)bytes, doubles = (int)(bytes / 8);
  for (int i = 0; i < nranks; i++) counts[i] = n, displs[i] = i * n;
  MPI_Comm w = MPI_COMM_WORLD;
  switch (op) {
    case kGather: FORMS(Gather, Igather, sendbuf, n, MPI_BYTE, recvbuf, n, MPI_BYTE, 0, w); break;
    case kScatter: FORMS(Scatter, Iscatter, sendbuf, n, MPI_BYTE, recvbuf, n, MPI_BYTE, 0, w); break;
    case kAllgatherv: FORMS(Allgatherv, Iallgatherv, sendbuf, n, MPI_BYTE, recvbuf, counts, displs, MPI_BYTE, w); break;
    case kAlltoallv: FORMS(Alltoallv, Ialltoallv, sendbuf, counts, displs, MPI_BYTE, recvbuf, counts, displs, MPI_BYTE, w); break;
    case kScan: FORMS(Scan, Iscan, sendbuf, recvbuf, doubles, MPI_DOUBLE, MPI_SUM, w); break;
    case kReduceScatterBlock:
      FORMS(Reduce_scatter_block, Ireduce_scatter_block, sendbuf, recvbuf, doubles / nranks, MPI_DOUBLE, MPI_SUM, w);
      break;
    default: break;
  }
}
static int persistent = 0;
static MPI_Request preq[2];  /* persistent requests of this size: [0] PMPI, [1] mcorecoll */

static void init_persistent(op_t op, int lib, size_t bytes) {
  const int n = (int)bytes;
  MPI_Request* r = &preq[lib];
  switch (op) {
    case kBarrier: lib ? LBARRIER_INIT(MPI_COMM_WORLD, MPI_INFO_NULL, r) : PBARRIER_INIT(MPI_COMM_WORLD, MPI_INFO_NULL, r); break;
    case kBcast:
      lib ? LBCAST_INIT(recvbuf, n, MPI_BYTE, 0, MPI_COMM_WORLD, MPI_INFO_NULL, r)
          : PBCAST_INIT(recvbuf, n, MPI_BYTE, 0, MPI_COMM_WORLD, MPI_INFO_NULL, r);
      break;
    case kAlltoall:
      lib ? LALLTOALL_INIT(sendbuf, n, MPI_BYTE, recvbuf, n, MPI_BYTE, MPI_COMM_WORLD, MPI_INFO_NULL, r)
          : PALLTOALL_INIT(sendbuf, n, MPI_BYTE, recvbuf, n, MPI_BYTE, MPI_COMM_WORLD, MPI_INFO_NULL, r);
      break;
    case kAllreduce:
      lib ? LALLREDUCE_INIT(sendbuf, recvbuf, n / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, r)
          : PALLREDUCE_INIT(sendbuf, recvbuf, n / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, r);
      break;
    case kReduce:
      lib ? LREDUCE_INIT(sendbuf, recvbuf, n / 8, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD, MPI_INFO_NULL, r)
          : PREDUCE_INIT(sendbuf, recvbuf, n / 8, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD, MPI_INFO_NULL, r);
      break;
    case kAllgather:
      lib ? LALLGATHER_INIT(sendbuf, n, MPI_BYTE, recvbuf, n, MPI_BYTE, MPI_COMM_WORLD, MPI_INFO_NULL, r)
          : PALLGATHER_INIT(sendbuf, n, MPI_BYTE, recvbuf, n, MPI_BYTE, MPI_COMM_WORLD, MPI_INFO_NULL, r);
      break;
    default: node_only(op, lib, 2, bytes, r); break;
  }
}

static void post(op_t op, int lib, size_t bytes, MPI_Request* r) {
  if (persistent) {
    *r = preq[lib];
    lib ? MPI_Start(r) : PMPI_Start(r);
    return;
  }
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
    case kAllreduce:
      lib ? MPI_Iallreduce(sendbuf, recvbuf, (int)bytes / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, r)
          : PMPI_Iallreduce(sendbuf, recvbuf, (int)bytes / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, r);
      break;
    case kReduce:
      lib ? MPI_Ireduce(sendbuf, recvbuf, (int)bytes / 8, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD, r)
          : PMPI_Ireduce(sendbuf, recvbuf, (int)bytes / 8, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD, r);
      break;
    case kAllgather:
      lib ? MPI_Iallgather(sendbuf, (int)bytes, MPI_BYTE, recvbuf, (int)bytes, MPI_BYTE, MPI_COMM_WORLD, r)
          : PMPI_Iallgather(sendbuf, (int)bytes, MPI_BYTE, recvbuf, (int)bytes, MPI_BYTE, MPI_COMM_WORLD, r);
      break;
    default: node_only(op, lib, 1, bytes, r); break;
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
    case kAllreduce:
      lib ? MPI_Allreduce(sendbuf, recvbuf, (int)bytes / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD)
          : PMPI_Allreduce(sendbuf, recvbuf, (int)bytes / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      break;
    case kReduce:
      lib ? MPI_Reduce(sendbuf, recvbuf, (int)bytes / 8, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD)
          : PMPI_Reduce(sendbuf, recvbuf, (int)bytes / 8, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
      break;
    case kAllgather:
      lib ? MPI_Allgather(sendbuf, (int)bytes, MPI_BYTE, recvbuf, (int)bytes, MPI_BYTE, MPI_COMM_WORLD)
          : PMPI_Allgather(sendbuf, (int)bytes, MPI_BYTE, recvbuf, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
      break;
    default: node_only(op, lib, 0, bytes, NULL); break;
  }
}

static void wait_for(int lib, MPI_Request* r) { lib ? MPI_Wait(r, MPI_STATUS_IGNORE) : PMPI_Wait(r, MPI_STATUS_IGNORE); }

/* Mean microseconds per call over `iters`, the slowest rank's; *mean (where given) the mean
 * over ranks of each rank's own. `what`: 0 blocking, 1 start + wait, 2 start + compute(`work`)
 * + wait; *cpu gets the mean compute time. */
static double timed(op_t op, int lib, size_t bytes, int iters, int what, double work, double* cpu, double* mean) {
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
  double mine = (now() - t0) / iters * 1e6, slowest = 0, sum = 0;
  PMPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (mean) {
    PMPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    *mean = sum / nranks;
  }
  if (cpu) *cpu = computing / iters * 1e6;
  return slowest;
}

static int by_value(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static double median(double* v, int n) {
  qsort(v, (size_t)n, sizeof(double), by_value);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int main(int argc, char** argv) {
  int provided, level = MPI_THREAD_MULTIPLE;
  for (int i = 1; i + 1 < argc; i += 2)
    if (!strcmp(argv[i], "--thread")) level = !strcmp(argv[i + 1], "single") ? MPI_THREAD_SINGLE : MPI_THREAD_MULTIPLE;
  MPI_Init_thread(&argc, &argv, level, &provided);
  op_t op = kBcast;
  size_t min = 8, max = 4u << 20;
  int iters = 0, rounds = 7, with_blocking = 1, meet = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--op")) {
      op = kMaxOp;
      for (int o = 0; o < kMaxOp; o++)
        if (!strcmp(argv[i + 1], names[o])) op = (op_t)o;
      if (op == kMaxOp) {
        fprintf(stderr, "mcorecoll_overlap: unknown --op %s\n", argv[i + 1]);
        MPI_Abort(MPI_COMM_WORLD, 2);
      }
    }
    else if (!strcmp(argv[i], "--form")) persistent = !strcmp(argv[i + 1], "persistent");
    else if (!strcmp(argv[i], "--min")) min = strtoull(argv[i + 1], NULL, 10);
    else if (!strcmp(argv[i], "--max")) max = strtoull(argv[i + 1], NULL, 10);
    else if (!strcmp(argv[i], "--iters")) iters = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--rounds")) rounds = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--blocking")) with_blocking = strcmp(argv[i + 1], "no") != 0;
    else if (!strcmp(argv[i], "--meet")) meet = strcmp(argv[i + 1], "no") != 0;
  }
  if (rounds < 1) rounds = 1;
  if (rounds > kMaxRounds) rounds = kMaxRounds;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* progress = getenv("MCORECOLL_PROGRESS");
  const int per_rank = op == kAlltoall || op == kAllgather || op == kGather || op == kScatter || op == kAllgatherv ||
                       op == kAlltoallv;
  const size_t span = per_rank ? max * (size_t)size : max;
  nranks = size;
  counts = malloc(sizeof(int) * (size_t)size);
  displs = malloc(sizeof(int) * (size_t)size);
  sendbuf = malloc(span + 1);
  recvbuf = malloc(span + 1);
  memset(sendbuf, 1, span + 1);
  memset(recvbuf, 2, span + 1);
  if (rank == 0)
    printf("op,form,bytes,ranks,progress,side,blocking_us,pure_us,total_us,compute_us,overlap_pct,vs_blocking,vs_mpi,"
           "pure_mean_us,vs_mpi_mean\n");
  if (op == kBarrier) min = max = 0;
  if ((op == kAllreduce || op == kReduce || op == kScan) && min < 8) min = 8;
  if (op == kReduceScatterBlock && min < 8 * (size_t)size) min = 8 * (size_t)size;
  /* The communicator is set up by a blocking call first (non-blocking calls may not). */
  MPI_Barrier(MPI_COMM_WORLD);
  for (size_t bytes = min; bytes <= max; bytes = bytes ? bytes * 4 : max + 1) {
    const int n = iters > 0 ? iters : bytes <= 65536 ? 400 : bytes <= (1u << 20) ? 60 : 15;
    if (persistent)
      for (int lib = 0; lib <= 1; lib++) init_persistent(op, lib, bytes);
    double block[2][kMaxRounds], pure[2][kMaxRounds], total[2][kMaxRounds], cpu[2][kMaxRounds];
    double pure_mean[2][kMaxRounds], vs_blocking[kMaxRounds], vs_mpi[kMaxRounds], vs_mpi_mean[kMaxRounds];
    for (int lib = 0; lib <= 1; lib++) timed(op, lib, bytes, n / 10 + 1, 1, 0, NULL, NULL); /* warm up */
    if (meet) MPI_Barrier(MPI_COMM_WORLD);
    for (int r = 0; r < rounds; r++) {
      for (int k = 0; k < 2; k++) {
        const int lib = (r % 2) ^ k;  /* A B, then B A */
        block[lib][r] = with_blocking ? timed(op, lib, bytes, n, 0, 0, NULL, NULL) : 0;
        pure[lib][r] = timed(op, lib, bytes, n, 1, 0, NULL, &pure_mean[lib][r]);
        total[lib][r] = timed(op, lib, bytes, n, 2, pure[lib][r] * 1e-6, &cpu[lib][r], NULL);
      }
      vs_blocking[r] = with_blocking ? pure[1][r] / block[1][r] : 0;
      vs_mpi[r] = pure[1][r] / pure[0][r];
      vs_mpi_mean[r] = pure_mean[1][r] / pure_mean[0][r];
    }
    for (int lib = 0; lib <= 1; lib++) {
      const double b = median(block[lib], rounds), p = median(pure[lib], rounds), t = median(total[lib], rounds),
                   c = median(cpu[lib], rounds);
      double overlap = 100.0 * (1.0 - (t - c) / p);
      if (overlap < 0) overlap = 0;
      if (rank == 0) {
        printf("%s,%s,%zu,%d,%s,%s,%.3f,%.3f,%.3f,%.3f,%.1f", names[op], persistent ? "persistent" : "nonblocking",
               bytes, size, progress ? progress : "auto", lib ? "mcorecoll" : "pmpi", b, p, t, c, overlap);
        const double m = median(pure_mean[lib], rounds);
        if (lib) printf(",%.3f,%.3f,%.3f,%.3f\n", median(vs_blocking, rounds), median(vs_mpi, rounds), m,
                        median(vs_mpi_mean, rounds));
        else printf(",,,%.3f,\n", m);
      }
    }
    if (persistent)
      for (int lib = 0; lib <= 1; lib++) lib ? MPI_Request_free(&preq[lib]) : PMPI_Request_free(&preq[lib]);
  }
  free(sendbuf);
  free(recvbuf);
  MPI_Finalize();
  return 0;
}
