/* What the library costs a program where it does not take the call: a communicator's life
 * (created, used a few times, freed), and completion calls polled in an application's loop.
 * Each against the MPI library alone (PMPI_*) in the same run, alternating rounds A B B A.
 *
 *   churn    MPI_Comm_dup (or MPI_Comm_split), K collectives, MPI_Comm_free: through mcorecoll
 *            (MPI_Comm_dup / MPI_Comm_split, MPI_Barrier / MPI_Allreduce, whose communicator
 *            mcorecoll then knows) or through PMPI alone (PMPI_Comm_dup / PMPI_Comm_split,
 *            PMPI_Barrier / PMPI_Allreduce: mcorecoll never
 *            sees it). K is 1, 2, 4,
 *            16 and 64, so the cost of a communicator's set-up and its pay-back both show;
 *            and MPI_Iallreduce + MPI_Wait, whose communicator is set up without waiting
 *            (node/setup_window.hpp: its window opens at the Nth call).
 *   poll     an MPIRandomAccess-like loop: one random update of a table (64 MiB by default)
 *            and two MPI_Test calls on a receive that is still pending, through MPI_Test or
 *            PMPI_Test, with no operation of mcorecoll pending.
 *
 * Reported per case, for both measures (the slowest rank's average, and the ranks' own averages
 * averaged): the median over rounds of each variant (us per communicator, ns per iteration)
 * and the median of the per-round ratios (mcorecoll / PMPI).
 *
 * Usage: mcorecoll_overheads [--what churn|poll|all] [--rounds R] [--table-mib M] [--csv FILE] */
#define _GNU_SOURCE
#include <mpi.h>
/* PMPI_X: the MPI library's own, past mcorecoll (which serves the PMPI_ names too). */
#include "mpi_library.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int rank, size;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int compare_doubles(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static double median(double* v, int n) {
  qsort(v, (size_t)n, sizeof(double), compare_doubles);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ---- churn ------------------------------------------------------------------------------ */

typedef enum { DUP_BARRIER, DUP_ALLREDUCE, SPLIT_BARRIER, DUP_IALLREDUCE } churn_kind;
static const char* churn_names[] = {"dup+barrier", "dup+allreduce", "split+barrier", "dup+iallreduce"};

/* One communicator's life, `uses` collectives long: seconds. */
static double one_life(churn_kind kind, int lib, int uses) {
  const double t0 = now();
  MPI_Comm c;
  /* The library's side duplicates and splits through MPI_Comm_dup and MPI_Comm_split, which
   * mcorecoll serves (across nodes it may set the communicator up there: node/dup_setup.hpp,
   * entry/runtime.cpp). */
  if (kind == SPLIT_BARRIER)
    lib ? MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &c) : PMPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &c);
  else if (lib) MPI_Comm_dup(MPI_COMM_WORLD, &c);
  else PMPI_Comm_dup(MPI_COMM_WORLD, &c);
  double x = rank, y = 0;
  for (int u = 0; u < uses; u++) {
    if (kind == DUP_IALLREDUCE) {
      MPI_Request r;
      lib ? MPI_Iallreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, c, &r) : PMPI_Iallreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, c, &r);
      lib ? MPI_Wait(&r, MPI_STATUS_IGNORE) : PMPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    if (kind == DUP_ALLREDUCE || kind == DUP_IALLREDUCE) {
      if (kind == DUP_ALLREDUCE)
        lib ? MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, c) : PMPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, c);
      if (y != (double)size * (size - 1) / 2) {
        fprintf(stderr, "mcorecoll_overheads: wrong allreduce result %g\n", y);
        MPI_Abort(MPI_COMM_WORLD, 2);
      }
    } else {
      lib ? MPI_Barrier(c) : PMPI_Barrier(c);
    }
  }
  PMPI_Comm_free(&c);  /* MPI_Comm_free is not intercepted: the attribute's callback runs inside */
  return now() - t0;
}

/* Seconds per communicator of one variant in one round, both measures: the slowest rank's
 * average (*slowest) and the ranks' averages averaged (*mean). */
static void churn_round(churn_kind kind, int lib, int uses, int lives, double* slowest, double* mean) {
  PMPI_Barrier(MPI_COMM_WORLD);
  double total = 0;
  for (int i = 0; i < lives; i++) total += one_life(kind, lib, uses);
  double mine = total / lives, sum;
  PMPI_Allreduce(&mine, slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  PMPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  *mean = sum / size;
}

/* ---- poll ------------------------------------------------------------------------------- */

static uint64_t* table;
static size_t table_words;

/* Nanoseconds per iteration of the update-and-poll loop, this rank. */
static double poll_round(int lib, int iters, MPI_Request* pending, uint64_t* seed) {
  int flag = 0;
  uint64_t x = *seed;
  const double t0 = now();
  for (int i = 0; i < iters; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    table[(x >> 17) % table_words] ^= x;
    if (lib) {
      MPI_Test(pending, &flag, MPI_STATUS_IGNORE);
      MPI_Test(pending, &flag, MPI_STATUS_IGNORE);
    } else {
      PMPI_Test(pending, &flag, MPI_STATUS_IGNORE);
      PMPI_Test(pending, &flag, MPI_STATUS_IGNORE);
    }
  }
  *seed = x;
  if (flag) {
    fprintf(stderr, "mcorecoll_overheads: the pending receive completed early\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return (now() - t0) / iters * 1e9;
}

static FILE* csv;

/* Medians over rounds: of the slowest rank's (lib, pmpi, ratio) and of the mean rank's (m*). */
static void report(const char* what, const char* unit, double* lib, double* pmpi, double* ratio, double* mlib,
                   double* mpmpi, double* mratio, int rounds) {
  const double ml = median(lib, rounds), mp = median(pmpi, rounds), mr = median(ratio, rounds);
  const double al = median(mlib, rounds), ap = median(mpmpi, rounds), ar = median(mratio, rounds);
  if (rank == 0) {
    printf("%-28s %12.3f %12.3f %8.3f %12.3f %12.3f %8.3f   (%s)\n", what, ml, mp, mr, al, ap, ar, unit);
    if (csv) fprintf(csv, "%s,%s,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n", what, unit, size, ml, mp, mr, al, ap, ar);
    fflush(stdout);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* what = "all";
  const char* csv_path = NULL;
  int rounds = 10, table_mib = 64;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--what") && a + 1 < argc) what = argv[++a];
    else if (!strcmp(argv[a], "--rounds") && a + 1 < argc) rounds = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--table-mib") && a + 1 < argc) table_mib = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--csv") && a + 1 < argc) csv_path = argv[++a];
    else {
      if (rank == 0) fprintf(stderr, "mcorecoll_overheads: unknown argument '%s'\n", argv[a]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  if (rounds < 2 || rounds % 2) rounds = rounds < 2 ? 2 : rounds + 1;
  if (rank == 0 && csv_path) {
    csv = fopen(csv_path, "w");
    if (csv) fprintf(csv, "case,unit,np,mcorecoll,pmpi,ratio,mcorecoll_mean,pmpi_mean,ratio_mean\n");
  }
  if (rank == 0)
    printf("%-28s %12s %12s %8s %12s %12s %8s\n", "case", "mcorecoll", "MPI alone", "ratio", "mean rank", "MPI alone",
           "ratio");
  double* lib = calloc((size_t)rounds, sizeof(double));
  double* pmpi = calloc((size_t)rounds, sizeof(double));
  double* ratio = calloc((size_t)rounds, sizeof(double));
  double* mlib = calloc((size_t)rounds, sizeof(double));
  double* mpmpi = calloc((size_t)rounds, sizeof(double));
  double* mratio = calloc((size_t)rounds, sizeof(double));

  if (!strcmp(what, "churn") || !strcmp(what, "all")) {
    static const int uses_list[] = {1, 2, 4, 16, 64};
    for (int k = 0; k < 4; k++)
      for (size_t u = 0; u < sizeof(uses_list) / sizeof(uses_list[0]); u++) {
        const int uses = uses_list[u];
        const int lives = uses >= 16 ? 20 : 50;
        double t[2], m[2];
        churn_round((churn_kind)k, 1, uses, 2, &t[1], &m[1]);  /* warm both */
        churn_round((churn_kind)k, 0, uses, 2, &t[0], &m[0]);
        for (int r = 0; r < rounds; r++) {
          const int lib_first = r % 4 == 0 || r % 4 == 3;  /* A B B A; [1]: through mcorecoll */
          churn_round((churn_kind)k, lib_first, uses, lives, &t[lib_first], &m[lib_first]);
          churn_round((churn_kind)k, !lib_first, uses, lives, &t[!lib_first], &m[!lib_first]);
          lib[r] = t[1] * 1e6, pmpi[r] = t[0] * 1e6, ratio[r] = t[1] / t[0];
          mlib[r] = m[1] * 1e6, mpmpi[r] = m[0] * 1e6, mratio[r] = m[1] / m[0];
        }
        char name[64];
        snprintf(name, sizeof(name), "%s x%d", churn_names[k], uses);
        report(name, "us per communicator", lib, pmpi, ratio, mlib, mpmpi, mratio, rounds);
      }
  }

  if (!strcmp(what, "poll") || !strcmp(what, "all")) {
    table_words = ((size_t)table_mib << 20) / sizeof(uint64_t);
    table = malloc(table_words * sizeof(uint64_t));
    for (size_t i = 0; i < table_words; i++) table[i] = i;  /* every page present before timing */
    /* A receive that only completes at the end, as RandomAccess polls for its peers' updates. */
    MPI_Request pending;
    int token = 0;
    PMPI_Irecv(&token, 1, MPI_INT, (rank + 1) % size, 77, MPI_COMM_WORLD, &pending);
    uint64_t seed = 12345u + (uint64_t)rank;
    const int iters = 200000;
    poll_round(1, iters, &pending, &seed);
    poll_round(0, iters, &pending, &seed);
    for (int r = 0; r < rounds; r++) {
      const int lib_first = r % 4 == 0 || r % 4 == 3;
      double t[2];
      PMPI_Barrier(MPI_COMM_WORLD);
      t[lib_first] = poll_round(lib_first, iters, &pending, &seed);
      PMPI_Barrier(MPI_COMM_WORLD);
      t[!lib_first] = poll_round(!lib_first, iters, &pending, &seed);
      double mine[2] = {t[1], t[0]}, slowest[2], sum[2];
      PMPI_Allreduce(mine, slowest, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      PMPI_Allreduce(mine, sum, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      lib[r] = slowest[0], pmpi[r] = slowest[1], ratio[r] = slowest[0] / slowest[1];
      mlib[r] = sum[0] / size, mpmpi[r] = sum[1] / size, mratio[r] = sum[0] / sum[1];
    }
    char name[64];
    snprintf(name, sizeof(name), "update+2xTest %dMiB", table_mib);
    report(name, "ns per iteration", lib, pmpi, ratio, mlib, mpmpi, mratio, rounds);
    PMPI_Send(&token, 1, MPI_INT, (rank + size - 1) % size, 77, MPI_COMM_WORLD);
    PMPI_Wait(&pending, MPI_STATUS_IGNORE);
    free(table);
  }
  if (csv) fclose(csv);
  free(lib), free(pmpi), free(ratio), free(mlib), free(mpmpi), free(mratio);
  MPI_Finalize();
  return 0;
}
