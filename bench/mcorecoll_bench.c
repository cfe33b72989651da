/* Side-by-side latency of the intercepted MPI_X (mcorecoll, which may route to its
 * shared-memory algorithms) and the MPI library's own PMPI_X, in the same run.
 *
 * Each round times `iters` calls of one variant after the same synchronisation (two
 * PMPI_Barriers), alternating A B B A so that drift hits both alike. A round's time is the
 * slowest rank's average per call. Reported: the median over rounds of each variant and the
 * median of the per-round ratios (mcorecoll / PMPI). Buffers change every round and the result
 * of the last call of each round is checked, so a fast path that corrupts data cannot look fast.
 *
 * Usage: mcorecoll_bench [--coll barrier|bcast|alltoall|all] [--min BYTES] [--max BYTES]
 *                        [--rounds R] [--iters N] [--csv FILE]
 * Sizes are powers of 4 from --min to --max (bcast: message; alltoall: block per peer). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { BARRIER, BCAST, ALLTOALL } coll_t;
static const char* coll_names[] = {"barrier", "bcast", "alltoall"};

static int rank, size;
static unsigned char *sendbuf, *recvbuf;

/* One call of the collective; `lib` picks MPI_X (through mcorecoll) or PMPI_X. */
static void call(coll_t c, int lib, size_t bytes, int root) {
  switch (c) {
    case BARRIER:
      lib ? MPI_Barrier(MPI_COMM_WORLD) : PMPI_Barrier(MPI_COMM_WORLD);
      break;
    case BCAST:
      lib ? MPI_Bcast(recvbuf, (int)bytes, MPI_BYTE, root, MPI_COMM_WORLD)
          : PMPI_Bcast(recvbuf, (int)bytes, MPI_BYTE, root, MPI_COMM_WORLD);
      break;
    case ALLTOALL:
      lib ? MPI_Alltoall(sendbuf, (int)bytes, MPI_BYTE, recvbuf, (int)bytes, MPI_BYTE, MPI_COMM_WORLD)
          : PMPI_Alltoall(sendbuf, (int)bytes, MPI_BYTE, recvbuf, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
      break;
  }
}

static unsigned char pattern(int src, int dst, size_t i, int round) {
  return (unsigned char)(src * 31 + dst * 7 + i * 13 + (size_t)round * 101);
}

/* Fill inputs for this round (bcast: the root's buffer; alltoall: every block). */
static void prepare(coll_t c, size_t bytes, int root, int round) {
  if (c == BCAST) {
    for (size_t i = 0; i < bytes; i++) recvbuf[i] = rank == root ? pattern(root, 0, i, round) : 0;
  } else if (c == ALLTOALL) {
    for (int d = 0; d < size; d++)
      for (size_t i = 0; i < bytes; i++) sendbuf[(size_t)d * bytes + i] = pattern(rank, d, i, round);
  }
}

static int verify(coll_t c, size_t bytes, int root, int round) {
  int bad = 0;
  if (c == BCAST) {
    for (size_t i = 0; i < bytes && !bad; i++) bad = recvbuf[i] != pattern(root, 0, i, round);
  } else if (c == ALLTOALL) {
    for (int s = 0; s < size && !bad; s++)
      for (size_t i = 0; i < bytes && !bad; i++) bad = recvbuf[(size_t)s * bytes + i] != pattern(s, rank, i, round);
  }
  return bad;
}

/* Seconds per call of one variant in one round: the slowest rank's average. */
static double time_round(coll_t c, int lib, size_t bytes, int iters, int round, int* bad) {
  const int root = round % size;  /* rotating roots */
  prepare(c, bytes, root, round);
  PMPI_Barrier(MPI_COMM_WORLD);
  PMPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int i = 0; i < iters; i++) call(c, lib, bytes, root);
  const double mine = (MPI_Wtime() - t0) / iters;
  *bad |= verify(c, bytes, root, round);
  double slowest;
  PMPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

static int compare_doubles(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static double median(double* v, int n) {
  qsort(v, (size_t)n, sizeof(double), compare_doubles);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Fewer iterations for big messages, so every size takes a similar, bounded time. */
static int iterations_for(coll_t c, size_t bytes, int iters) {
  const size_t moved = c == ALLTOALL ? bytes * (size_t)size : bytes;
  int n = iters;
  while (n > 2 && moved * (size_t)n > ((size_t)64 << 20)) n /= 2;
  return n;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* which = "all";
  size_t min = 1, max = (size_t)1 << 20;
  int rounds = 21, iters = 200;
  const char* csv_path = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--coll") && i + 1 < argc) which = argv[++i];
    else if (!strcmp(argv[i], "--min") && i + 1 < argc) min = strtoull(argv[++i], NULL, 0);
    else if (!strcmp(argv[i], "--max") && i + 1 < argc) max = strtoull(argv[++i], NULL, 0);
    else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--iters") && i + 1 < argc) iters = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--csv") && i + 1 < argc) csv_path = argv[++i];
    else {
      if (rank == 0) fprintf(stderr, "mcorecoll_bench: unknown argument '%s'\n", argv[i]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  if (rounds < 2 || iters < 1 || min < 1 || max < min) {
    if (rank == 0) fprintf(stderr, "mcorecoll_bench: need rounds >= 2, iters >= 1, 1 <= min <= max\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  sendbuf = malloc(max * (size_t)size);
  recvbuf = malloc(max * (size_t)size);
  double* lib_t = malloc(sizeof(double) * (size_t)rounds);
  double* pmpi_t = malloc(sizeof(double) * (size_t)rounds);
  double* ratio = malloc(sizeof(double) * (size_t)rounds);
  FILE* csv = NULL;
  if (rank == 0 && csv_path) {
    csv = fopen(csv_path, "w");
    if (csv) fprintf(csv, "collective,np,bytes,mcorecoll_us,pmpi_us,ratio,rounds,iters,ok\n");
  }
  if (rank == 0)
    printf("%-9s %4s %10s %14s %14s %8s  %s\n", "coll", "np", "bytes", "mcorecoll_us", "pmpi_us", "ratio", "check");
  int all_ok = 1;
  for (int c = BARRIER; c <= ALLTOALL; c++) {
    if (strcmp(which, "all") && strcmp(which, coll_names[c])) continue;
    for (size_t bytes = c == BARRIER ? 0 : min; bytes <= (c == BARRIER ? 0 : max); bytes = bytes ? bytes * 4 : 1) {
      const int n = iterations_for((coll_t)c, bytes, iters);
      int bad = 0;
      call((coll_t)c, 1, bytes, 0);  /* warm-up: contexts, segments, pages */
      call((coll_t)c, 0, bytes, 0);
      for (int r = 0; r < rounds; r++) {
        const int lib_first = (r % 4 == 0 || r % 4 == 3);  /* A B B A */
        double t_first = time_round((coll_t)c, lib_first, bytes, n, r, &bad);
        double t_second = time_round((coll_t)c, !lib_first, bytes, n, r, &bad);
        lib_t[r] = lib_first ? t_first : t_second;
        pmpi_t[r] = lib_first ? t_second : t_first;
        ratio[r] = lib_t[r] / pmpi_t[r];
      }
      int any_bad = 0;
      PMPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
      all_ok &= !any_bad;
      const double ml = median(lib_t, rounds) * 1e6, mp = median(pmpi_t, rounds) * 1e6;
      const double mr = median(ratio, rounds);
      if (rank == 0) {
        printf("%-9s %4d %10zu %14.3f %14.3f %8.3f  %s\n", coll_names[c], size, bytes, ml, mp, mr, any_bad ? "CORRUPT" : "ok");
        fflush(stdout);
        if (csv) fprintf(csv, "%s,%d,%zu,%.4f,%.4f,%.4f,%d,%d,%d\n", coll_names[c], size, bytes, ml, mp, mr, rounds, n, !any_bad);
      }
    }
  }
  if (csv) fclose(csv);
  free(sendbuf); free(recvbuf); free(lib_t); free(pmpi_t); free(ratio);
  MPI_Finalize();
  return all_ok ? 0 : 1;
}
