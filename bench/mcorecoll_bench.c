/* Side-by-side latency of the intercepted MPI_X (mcorecoll, which may route to its
 * shared-memory algorithms) and the MPI library's own PMPI_X, in the same run.
 *
 * Each round times `iters` calls of one variant after the same low-skew start (see
 * start_together), alternating A B B A so that drift hits both alike. Two measures of a round:
 * the slowest rank's average per call, and the mean over ranks of each rank's own average per
 * call over its back-to-back calls (what OSU and IMB report as the average: a rank that leaves a
 * call early gains in the second, not in the first). Reported per size: the median over rounds
 * of each variant in each measure, the medians of the per-round ratios (mcorecoll / PMPI) and
 * the median of the per-round differences in ns per call (slowest rank). With MCORECOLL_<X>=pmpi that difference is the cost of the
 * interposition itself. Buffers change every round and the result of the last call of each
 * round is checked, so a fast path that corrupts data cannot look fast.
 *
 * Usage: mcorecoll_bench [--coll NAME|all|reductions|node-only]
 *                        [--min BYTES] [--max BYTES]
 *                        [--alltoall-max BYTES] [--factor F] [--rounds R] [--iters N]
 *                        [--budget SECONDS] [--csv FILE] [--json FILE]
 * NAME: barrier, bcast, alltoall, allreduce, reduce, allgather, alltoallv, allgatherv, gather,
 * gatherv, scatter, scatterv, reduce_scatter_block, reduce_scatter, scan, exscan.
 * "all" is barrier, bcast and alltoall; "reductions" allreduce, reduce and allgather; "node-only"
 * the ten after them (the v-forms with blocks of one size; the reduce-scatters: the whole vector,
 * MPI_SUM of doubles; the scans: the message). Sizes go from --min to --max (default 1 to 16M), each F
 * times the last (default 4); bcast, allreduce and reduce: the message (MPI_SUM of doubles,
 * below 8 bytes of unsigned chars; reduce from rotating roots); alltoall and allgather: the
 * block per peer, up to --alltoall-max (default --max). --budget:
 * start no new size after this many seconds (the output then says "stopped"). BYTES take a
 * K, M or G suffix. */
#define _GNU_SOURCE  /* clock_gettime, gethostname whatever the C standard chosen */
#include <mpi.h>
/* PMPI_X: the MPI library's own, past mcorecoll (which serves the PMPI_ names too). */
#include "mpi_library.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef enum {
  BARRIER, BCAST, ALLTOALL, ALLREDUCE, REDUCE, ALLGATHER,
  ALLTOALLV, ALLGATHERV, GATHER, GATHERV, SCATTER, SCATTERV, REDUCE_SCATTER_BLOCK, REDUCE_SCATTER, SCAN, EXSCAN
} coll_t;
static const char* coll_names[] = {"barrier", "bcast", "alltoall", "allreduce", "reduce", "allgather",
                                   "alltoallv", "allgatherv", "gather", "gatherv", "scatter", "scatterv",
                                   "reduce_scatter_block", "reduce_scatter", "scan", "exscan"};
enum { kCollectives = 16 };
static int rank, size;
static int *counts, *displs;  /* the v-forms: `size` blocks of one size, in rank order */

/* The collectives whose size is a block per rank (up to --alltoall-max). */
static int per_block(coll_t c) {
  return c == ALLTOALL || c == ALLGATHER || (c >= ALLTOALLV && c <= SCATTERV);
}
/* The reductions of doubles (below 8 bytes, unsigned chars): allreduce, reduce, the
 * reduce-scatters (the whole vector: `size` blocks) and the scans. */
static int reduction(coll_t c) { return c == ALLREDUCE || c == REDUCE || c >= REDUCE_SCATTER_BLOCK; }
static int elements(size_t bytes) { return bytes >= 8 ? (int)(bytes / 8) : (int)bytes; }
/* One rank's block of a reduce-scatter of `bytes` in all (at least one element). */
static int rs_block(size_t bytes) { return elements(bytes) / size > 0 ? elements(bytes) / size : 1; }

static int one_node;  /* every rank shares this node's clock */
static unsigned char *sendbuf, *recvbuf;

/* The collectives after allgather (each v-form with `size` blocks of `bytes`). */
static void call_node_only(coll_t c, int lib, size_t bytes, int root) {
  const int b = (int)bytes;
  for (int i = 0; i < size; i++) counts[i] = b, displs[i] = i * b;
  const MPI_Datatype type = bytes >= 8 ? MPI_DOUBLE : MPI_UNSIGNED_CHAR;
  const int rs = rs_block(bytes);
  MPI_Comm w = MPI_COMM_WORLD;
  switch (c) {
    case ALLTOALLV:
      lib ? MPI_Alltoallv(sendbuf, counts, displs, MPI_BYTE, recvbuf, counts, displs, MPI_BYTE, w)
          : PMPI_Alltoallv(sendbuf, counts, displs, MPI_BYTE, recvbuf, counts, displs, MPI_BYTE, w);
      break;
    case ALLGATHERV:
      lib ? MPI_Allgatherv(sendbuf, b, MPI_BYTE, recvbuf, counts, displs, MPI_BYTE, w)
          : PMPI_Allgatherv(sendbuf, b, MPI_BYTE, recvbuf, counts, displs, MPI_BYTE, w);
      break;
    case GATHER:
      lib ? MPI_Gather(sendbuf, b, MPI_BYTE, recvbuf, b, MPI_BYTE, root, w)
          : PMPI_Gather(sendbuf, b, MPI_BYTE, recvbuf, b, MPI_BYTE, root, w);
      break;
    case GATHERV:
      lib ? MPI_Gatherv(sendbuf, b, MPI_BYTE, recvbuf, counts, displs, MPI_BYTE, root, w)
          : PMPI_Gatherv(sendbuf, b, MPI_BYTE, recvbuf, counts, displs, MPI_BYTE, root, w);
      break;
    case SCATTER:
      lib ? MPI_Scatter(sendbuf, b, MPI_BYTE, recvbuf, b, MPI_BYTE, root, w)
          : PMPI_Scatter(sendbuf, b, MPI_BYTE, recvbuf, b, MPI_BYTE, root, w);
      break;
    case SCATTERV:
      lib ? MPI_Scatterv(sendbuf, counts, displs, MPI_BYTE, recvbuf, b, MPI_BYTE, root, w)
          : PMPI_Scatterv(sendbuf, counts, displs, MPI_BYTE, recvbuf, b, MPI_BYTE, root, w);
      break;
    case REDUCE_SCATTER_BLOCK:
      lib ? MPI_Reduce_scatter_block(sendbuf, recvbuf, rs, type, MPI_SUM, w)
          : PMPI_Reduce_scatter_block(sendbuf, recvbuf, rs, type, MPI_SUM, w);
      break;
    case REDUCE_SCATTER:
      for (int i = 0; i < size; i++) counts[i] = rs;
      lib ? MPI_Reduce_scatter(sendbuf, recvbuf, counts, type, MPI_SUM, w)
          : PMPI_Reduce_scatter(sendbuf, recvbuf, counts, type, MPI_SUM, w);
      break;
    case SCAN:
      lib ? MPI_Scan(sendbuf, recvbuf, elements(bytes), type, MPI_SUM, w)
          : PMPI_Scan(sendbuf, recvbuf, elements(bytes), type, MPI_SUM, w);
      break;
    case EXSCAN:
      lib ? MPI_Exscan(sendbuf, recvbuf, elements(bytes), type, MPI_SUM, w)
          : PMPI_Exscan(sendbuf, recvbuf, elements(bytes), type, MPI_SUM, w);
      break;
    default:
      break;
  }
}

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
    case ALLREDUCE:
    case REDUCE: {
      /* Sums of doubles (bytes / 8 of them); below 8 bytes, of unsigned chars. */
      const int doubles = bytes >= 8;
      const int count = doubles ? (int)(bytes / 8) : (int)bytes;
      const MPI_Datatype type = doubles ? MPI_DOUBLE : MPI_UNSIGNED_CHAR;
      if (c == ALLREDUCE)
        lib ? MPI_Allreduce(sendbuf, recvbuf, count, type, MPI_SUM, MPI_COMM_WORLD)
            : PMPI_Allreduce(sendbuf, recvbuf, count, type, MPI_SUM, MPI_COMM_WORLD);
      else
        lib ? MPI_Reduce(sendbuf, recvbuf, count, type, MPI_SUM, root, MPI_COMM_WORLD)
            : PMPI_Reduce(sendbuf, recvbuf, count, type, MPI_SUM, root, MPI_COMM_WORLD);
      break;
    }
    case ALLGATHER:
      lib ? MPI_Allgather(sendbuf, (int)bytes, MPI_BYTE, recvbuf, (int)bytes, MPI_BYTE, MPI_COMM_WORLD)
          : PMPI_Allgather(sendbuf, (int)bytes, MPI_BYTE, recvbuf, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
      break;
    default:
      call_node_only(c, lib, bytes, root);
      break;
  }
}

static unsigned char pattern(int src, int dst, size_t i, int round) {
  return (unsigned char)(src * 31 + dst * 7 + i * 13 + (size_t)round * 101);
}
/* A reduction's element: below 8 bytes an unsigned char small enough that the sum over every
 * rank stays below 256 (Open MPI 4.1.4's own MPI_SUM of MPI_UNSIGNED_CHAR saturates instead of
 * wrapping on long vectors, doc/mpi-defects.md: sums that fit are right in either). */
static unsigned char term(int src, size_t i, int round, size_t bytes) {
  const unsigned char p = pattern(src, 0, i, round);
  return bytes >= 8 ? p : (unsigned char)(p % (255 / size > 1 ? 255 / size : 1));
}

/* Fill inputs for this round (bcast: the root's buffer; alltoall: every block). */
static void prepare(coll_t c, size_t bytes, int root, int round) {
  if (c == BCAST) {
    for (size_t i = 0; i < bytes; i++) recvbuf[i] = rank == root ? pattern(root, 0, i, round) : 0;
  } else if (c == ALLTOALL) {
    for (int d = 0; d < size; d++)
      for (size_t i = 0; i < bytes; i++) sendbuf[(size_t)d * bytes + i] = pattern(rank, d, i, round);
  } else if (c == ALLTOALLV || (c == SCATTER || c == SCATTERV)) {
    const int from = c == ALLTOALLV ? rank : root;
    if (c == ALLTOALLV || rank == root)
      for (int d = 0; d < size; d++)
        for (size_t i = 0; i < bytes; i++) sendbuf[(size_t)d * bytes + i] = pattern(from, d, i, round);
  } else if (c == ALLGATHER || c == ALLGATHERV || c == GATHER || c == GATHERV) {
    for (size_t i = 0; i < bytes; i++) sendbuf[i] = pattern(rank, 0, i, round);
  } else if (reduction(c)) {
    const size_t n = c == REDUCE_SCATTER_BLOCK || c == REDUCE_SCATTER ? (size_t)rs_block(bytes) * (size_t)size
                                                                      : (size_t)elements(bytes);
    if (bytes >= 8)
      for (size_t i = 0; i < n; i++) ((double*)sendbuf)[i] = term(rank, i, round, bytes);
    else
      for (size_t i = 0; i < n; i++) sendbuf[i] = term(rank, i, round, bytes);
  }
}

static int verify(coll_t c, size_t bytes, int root, int round) {
  int bad = 0;
  if (c == BCAST) {
    for (size_t i = 0; i < bytes && !bad; i++) bad = recvbuf[i] != pattern(root, 0, i, round);
  } else if (c == ALLTOALL) {
    for (int s = 0; s < size && !bad; s++)
      for (size_t i = 0; i < bytes && !bad; i++) bad = recvbuf[(size_t)s * bytes + i] != pattern(s, rank, i, round);
  } else if (c == ALLGATHER || c == ALLGATHERV || ((c == GATHER || c == GATHERV) && rank == root)) {
    for (int s = 0; s < size && !bad; s++)
      for (size_t i = 0; i < bytes && !bad; i++) bad = recvbuf[(size_t)s * bytes + i] != pattern(s, 0, i, round);
  } else if (c == ALLTOALLV) {
    for (int s = 0; s < size && !bad; s++)
      for (size_t i = 0; i < bytes && !bad; i++) bad = recvbuf[(size_t)s * bytes + i] != pattern(s, rank, i, round);
  } else if (c == SCATTER || c == SCATTERV) {
    for (size_t i = 0; i < bytes && !bad; i++) bad = recvbuf[i] != pattern(root, rank, i, round);
  } else if (c >= REDUCE_SCATTER_BLOCK) {
    /* Sums of small integers: exact in any order. */
    const int rs = c == SCAN || c == EXSCAN ? 0 : rs_block(bytes);
    const size_t n = rs ? (size_t)rs : (size_t)elements(bytes);
    const int upto = c == SCAN ? rank + 1 : c == EXSCAN ? rank : size;
    for (size_t i = 0; i < n && !bad && upto > 0; i++) {
      unsigned long want = 0;
      for (int s = 0; s < upto; s++) want += term(s, (size_t)rank * (size_t)rs + i, round, bytes);
      bad = bytes >= 8 ? ((double*)recvbuf)[i] != (double)want : recvbuf[i] != (unsigned char)want;
    }
  } else if ((c == ALLREDUCE || (c == REDUCE && rank == root))) {
    /* Sums of small integers: exact in any order. */
    const size_t n = bytes >= 8 ? bytes / 8 : bytes;
    for (size_t i = 0; i < n && !bad; i++) {
      unsigned long want = 0;
      for (int s = 0; s < size; s++) want += term(s, i, round, bytes);
      bad = bytes >= 8 ? ((double*)recvbuf)[i] != (double)want : recvbuf[i] != (unsigned char)want;
    }
  }
  return bad;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Every rank leaves at nearly the same instant, the same way before either variant. A barrier
 * releases ranks one message apart; on one node all ranks read the same monotonic clock, so
 * rank 0 names a start time a little ahead and everyone spins until it (skew: one clock read).
 * Across nodes the clocks differ and two barriers are all we have. */
static void start_together(void) {
  PMPI_Barrier(MPI_COMM_WORLD);
  PMPI_Barrier(MPI_COMM_WORLD);
  if (!one_node) return;
  double start = now() + 50e-6;  /* enough for the bcast below to reach everyone */
  PMPI_Bcast(&start, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  while (now() < start) {
  }
}

/* Seconds per call of one variant in one round: the slowest rank's average, and (*mean) the
 * mean over ranks of each rank's own average. */
static double time_round(coll_t c, int lib, size_t bytes, int iters, int round, int* bad, double* mean) {
  const int root = round % size;  /* rotating roots */
  prepare(c, bytes, root, round);
  start_together();
  const double t0 = MPI_Wtime();
  for (int i = 0; i < iters; i++) call(c, lib, bytes, root);
  const double mine = (MPI_Wtime() - t0) / iters;
  *bad |= verify(c, bytes, root, round);
  double slowest, sum;
  PMPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  PMPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  *mean = sum / size;
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
  const size_t moved = per_block(c) ? bytes * (size_t)size : bytes;
  int n = iters;
  while (n > 2 && moved * (size_t)n > ((size_t)64 << 20)) n /= 2;
  return n;
}

/* "16K", "4M": sizes in the table as people write them (exact multiples only). */
static const char* human(size_t bytes, char* out, size_t len) {
  const char* units = "KMG";
  int u = -1;
  while (u < 2 && bytes >= 1024 && bytes % 1024 == 0) bytes /= 1024, u++;
  if (u < 0) snprintf(out, len, "%zu", bytes);
  else snprintf(out, len, "%zu%c", bytes, units[u]);
  return out;
}

static int parse_bytes(const char* text, size_t* out) {
  char* end;
  unsigned long long v = strtoull(text, &end, 0);
  int shift = 0;
  if (*end == 'K' || *end == 'k') shift = 10, end++;
  else if (*end == 'M' || *end == 'm') shift = 20, end++;
  else if (*end == 'G' || *end == 'g') shift = 30, end++;
  if (end == text || *end) return 0;
  *out = (size_t)v << shift;
  return 1;
}

/* Writes `s` as a JSON string. */
static void json_string(FILE* f, const char* s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
    else if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", *s);
    else fputc(*s, f);
  }
  fputc('"', f);
}

typedef struct {
  int coll;
  size_t bytes;
  double lib_us, pmpi_us, ratio, diff_ns;
  double lib_mean_us, pmpi_mean_us, mean_ratio;  /* the mean over ranks of each rank's own time */
  int iters, ok;
} row_t;

extern char** environ;

static void usage_error(const char* what) {
  if (rank == 0)
    fprintf(stderr, "mcorecoll_bench: %s\nusage: mcorecoll_bench [--coll barrier|bcast|alltoall|allreduce|reduce|allgather|all|reductions] "
                    "[--min BYTES] [--max BYTES] [--alltoall-max BYTES] [--factor F] [--rounds R] [--iters N] "
                    "[--budget SECONDS] [--csv FILE] [--json FILE]\n", what);
  MPI_Abort(MPI_COMM_WORLD, 2);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const double t_begin = now();
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* which = "all";
  size_t min = 1, max = (size_t)16 << 20, alltoall_max = 0;
  int rounds = 21, iters = 200, factor = 4;
  double budget = 0;
  const char *csv_path = NULL, *json_path = NULL;
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v) usage_error("missing value or unknown argument");
    if (!strcmp(a, "--coll")) which = v;
    else if (!strcmp(a, "--min")) { if (!parse_bytes(v, &min)) usage_error("bad --min"); }
    else if (!strcmp(a, "--max")) { if (!parse_bytes(v, &max)) usage_error("bad --max"); }
    else if (!strcmp(a, "--alltoall-max")) { if (!parse_bytes(v, &alltoall_max)) usage_error("bad --alltoall-max"); }
    else if (!strcmp(a, "--factor")) factor = atoi(v);
    else if (!strcmp(a, "--rounds")) rounds = atoi(v);
    else if (!strcmp(a, "--iters")) iters = atoi(v);
    else if (!strcmp(a, "--budget")) budget = atof(v);
    else if (!strcmp(a, "--csv")) csv_path = v;
    else if (!strcmp(a, "--json")) json_path = v;
    else usage_error("unknown argument");
    i++;
  }
  if (!alltoall_max) alltoall_max = max;
  if (rounds < 2 || iters < 1 || min < 1 || max < min || alltoall_max < min || factor < 2 || budget < 0)
    usage_error("need rounds >= 2, iters >= 1, 1 <= min <= max, min <= alltoall-max, factor >= 2, budget >= 0");
  int known = !strcmp(which, "all") || !strcmp(which, "reductions") || !strcmp(which, "node-only");
  for (int c = 0; c < kCollectives; c++) known |= !strcmp(which, coll_names[c]);
  if (!known)
    usage_error("--coll takes one collective's name (barrier, bcast, alltoall, allreduce, reduce, allgather, "
                "alltoallv, allgatherv, gather, gatherv, scatter, scatterv, reduce_scatter_block, reduce_scatter, scan, "
                "exscan), all (the first three), reductions (allreduce, reduce, allgather) or node-only (the ten after)");

  MPI_Comm node;
  int node_size;
  PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  PMPI_Comm_size(node, &node_size);
  PMPI_Comm_free(&node);
  PMPI_Allreduce(MPI_IN_PLACE, &node_size, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  one_node = node_size == size;

  /* bcast uses max bytes of recvbuf; alltoall np blocks of each buffer. */
  const size_t buf_bytes = max > alltoall_max * (size_t)size ? max : alltoall_max * (size_t)size;
  counts = malloc(sizeof(int) * (size_t)size);
  displs = malloc(sizeof(int) * (size_t)size);
  sendbuf = malloc(buf_bytes);
  recvbuf = malloc(buf_bytes);
  double* lib_t = malloc(sizeof(double) * (size_t)rounds);
  double* pmpi_t = malloc(sizeof(double) * (size_t)rounds);
  double* ratio = malloc(sizeof(double) * (size_t)rounds);
  double* diff = malloc(sizeof(double) * (size_t)rounds);
  double* lib_mean = malloc(sizeof(double) * (size_t)rounds);
  double* pmpi_mean = malloc(sizeof(double) * (size_t)rounds);
  double* mean_ratio = malloc(sizeof(double) * (size_t)rounds);
  row_t* rows = malloc(sizeof(row_t) * kCollectives * 64);
  if (!sendbuf || !recvbuf || !lib_t || !pmpi_t || !ratio || !diff || !lib_mean || !pmpi_mean || !mean_ratio ||
      !rows) {
    fprintf(stderr, "mcorecoll_bench: rank %d: cannot allocate 2 x %zu bytes (lower --max)\n", rank, buf_bytes);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }

  /* Which MPI, and the mcorecoll settings of this run: the table alone must say what it shows. */
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int len;
  MPI_Get_library_version(version, &len);
  version[strcspn(version, "\n,")] = '\0';  /* the first line (MPICH's is long) */
  char* word = strstr(version, "Version:");  /* "MPICH Version:\t4.0.2" -> "MPICH 4.0.2" */
  if (word) memmove(word, word + 8, strlen(word + 8) + 1);
  for (char *in = version, *out = version;; in++) {  /* one space between words */
    if ((*in == ' ' || *in == '\t') && (out == version || out[-1] == ' ')) continue;
    if (!(*out++ = *in == '\t' ? ' ' : *in)) break;
  }
  char settings[1024] = "";
  for (char** e = environ; *e; e++)
    if (!strncmp(*e, "MCORECOLL_", 10) && strlen(settings) + strlen(*e) + 2 < sizeof settings)
      strcat(strcat(settings, settings[0] ? " " : ""), *e);
  char host[256] = "?";
  gethostname(host, sizeof host - 1);

  FILE* csv = NULL;
  if (rank == 0 && csv_path) {
    csv = fopen(csv_path, "w");
    if (!csv) fprintf(stderr, "mcorecoll_bench: cannot write %s\n", csv_path);
    else fprintf(csv, "collective,np,bytes,mcorecoll_us,pmpi_us,ratio,diff_ns,rounds,iters,ok,"
                      "mcorecoll_mean_us,pmpi_mean_us,mean_ratio\n");
  }
  if (rank == 0) {
    printf("# mcorecoll_bench on %s, np %d%s, %s\n", host, size, one_node ? " (one node)" : "", version);
    printf("# settings: %s\n", settings[0] ? settings : "(defaults)");
    printf("# mcorecoll = MPI_X through the library; pmpi = the MPI library's PMPI_X; the slowest rank's time "
           "per call; ratio and +ns: medians of per-round mcorecoll/pmpi and mcorecoll-pmpi; mean ratio: the same "
           "ratio of the mean over ranks of each rank's own time\n");
    printf("%-9s %4s %7s %13s %13s %7s %9s %10s  %s\n", "coll", "np", "bytes", "mcorecoll_us", "pmpi_us", "ratio",
           "+ns/call", "mean_ratio", "check");
    fflush(stdout);
  }
  int all_ok = 1, nrows = 0, stopped = 0;
  for (int c = BARRIER; c < kCollectives && !stopped; c++) {
    /* "all": the first three (the tuner's and compare-peers' runs); "reductions" the others. */
    if (strcmp(which, coll_names[c]) && (strcmp(which, "all") || c > ALLTOALL) &&
        (strcmp(which, "reductions") || c <= ALLTOALL || c > ALLGATHER) && (strcmp(which, "node-only") || c < ALLTOALLV))
      continue;
    const size_t first = c == BARRIER ? 0 : min;
    const size_t last = c == BARRIER ? 0 : per_block((coll_t)c) ? alltoall_max : max;
    for (size_t bytes = first; bytes <= last && nrows < kCollectives * 64; bytes = bytes ? bytes * (size_t)factor : last + 1) {
      /* The budget: rank 0 decides, so that every rank stops at the same size. */
      stopped = budget > 0 && now() - t_begin > budget;
      PMPI_Bcast(&stopped, 1, MPI_INT, 0, MPI_COMM_WORLD);
      if (stopped) break;
      const int n = iterations_for((coll_t)c, bytes, iters);
      int bad = 0;
      /* Warm-up: contexts, segments, pages; at a collective's first size a round's worth of
       * each variant, where the MPI library's and mcorecoll's first calls of that collective
       * (its set-up, its first buffers) would reach the timed rounds (at np 16 the first size
       * of a run came out up to 2.4x off with the library disabled). */
      const int warm = bytes == first ? n : 1;
      for (int w = 0; w < warm; w++) call((coll_t)c, 1, bytes, 0);
      for (int w = 0; w < warm; w++) call((coll_t)c, 0, bytes, 0);
      for (int r = 0; r < rounds; r++) {
        const int lib_first = (r % 4 == 0 || r % 4 == 3);  /* A B B A */
        double m_first, m_second;
        double t_first = time_round((coll_t)c, lib_first, bytes, n, r, &bad, &m_first);
        double t_second = time_round((coll_t)c, !lib_first, bytes, n, r, &bad, &m_second);
        lib_t[r] = lib_first ? t_first : t_second;
        pmpi_t[r] = lib_first ? t_second : t_first;
        lib_mean[r] = lib_first ? m_first : m_second;
        pmpi_mean[r] = lib_first ? m_second : m_first;
        mean_ratio[r] = lib_mean[r] / pmpi_mean[r];
        ratio[r] = lib_t[r] / pmpi_t[r];
        diff[r] = (lib_t[r] - pmpi_t[r]) * 1e9;
      }
      int any_bad = 0;
      PMPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
      all_ok &= !any_bad;
      row_t row = {c, bytes, median(lib_t, rounds) * 1e6, median(pmpi_t, rounds) * 1e6,
                   median(ratio, rounds), median(diff, rounds), median(lib_mean, rounds) * 1e6,
                   median(pmpi_mean, rounds) * 1e6, median(mean_ratio, rounds), n, !any_bad};
      rows[nrows++] = row;
      if (rank == 0) {
        char h[32];
        printf("%-9s %4d %7s %13.3f %13.3f %7.3f %9.1f %10.3f  %s\n", coll_names[c], size, human(bytes, h, sizeof h),
               row.lib_us, row.pmpi_us, row.ratio, row.diff_ns, row.mean_ratio, any_bad ? "CORRUPT" : "ok");
        fflush(stdout);
        if (csv) {
          fprintf(csv, "%s,%d,%zu,%.4f,%.4f,%.4f,%.1f,%d,%d,%d,%.4f,%.4f,%.4f\n", coll_names[c], size, bytes,
                  row.lib_us, row.pmpi_us, row.ratio, row.diff_ns, rounds, n, row.ok, row.lib_mean_us,
                  row.pmpi_mean_us, row.mean_ratio);
          fflush(csv);  /* a run stopped from outside keeps every finished size */
        }
      }
    }
  }
  if (rank == 0 && stopped) printf("# stopped: --budget of %g s spent\n", budget);
  if (csv) fclose(csv);
  if (rank == 0 && json_path) {
    FILE* j = fopen(json_path, "w");
    if (!j) {
      fprintf(stderr, "mcorecoll_bench: cannot write %s\n", json_path);
    } else {
      fprintf(j, "{\n  \"host\": ");
      json_string(j, host);
      fprintf(j, ",\n  \"mpi\": ");
      json_string(j, version);
      fprintf(j, ",\n  \"settings\": ");
      json_string(j, settings);
      fprintf(j, ",\n  \"np\": %d,\n  \"one_node\": %s,\n  \"rounds\": %d,\n  \"complete\": %s,\n  \"results\": [",
              size, one_node ? "true" : "false", rounds, stopped ? "false" : "true");
      for (int i = 0; i < nrows; i++)
        fprintf(j, "%s\n    {\"collective\": \"%s\", \"bytes\": %zu, \"mcorecoll_us\": %.4f, \"pmpi_us\": %.4f, "
                   "\"ratio\": %.4f, \"diff_ns\": %.1f, \"mcorecoll_mean_us\": %.4f, \"pmpi_mean_us\": %.4f, "
                   "\"mean_ratio\": %.4f, \"iters\": %d, \"ok\": %s}",
                i ? "," : "", coll_names[rows[i].coll], rows[i].bytes, rows[i].lib_us, rows[i].pmpi_us,
                rows[i].ratio, rows[i].diff_ns, rows[i].lib_mean_us, rows[i].pmpi_mean_us, rows[i].mean_ratio,
                rows[i].iters, rows[i].ok ? "true" : "false");
      fprintf(j, "\n  ]\n}\n");
      fclose(j);
    }
  }
  free(sendbuf); free(recvbuf); free(lib_t); free(pmpi_t); free(ratio); free(diff); free(rows);
  free(lib_mean); free(pmpi_mean); free(mean_ratio);
  MPI_Finalize();
  return all_ok ? 0 : 1;
}
