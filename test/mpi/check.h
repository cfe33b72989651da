/* Tiny checking helpers shared by the MPI test programs: count failures, print the first few
 * with where they happened, and end the program with a non-zero status if any failed. */
#ifndef MCORECOLL_TEST_CHECK_H
#define MCORECOLL_TEST_CHECK_H

#include <mpi.h>
/* PMPI_X: the MPI library's own, past mcorecoll (which serves the PMPI_ names too); not in a
 * program built for the other MPI (MCORECOLL_FOREIGN_TEST), where mcorecoll passes every call
 * through untouched. */
#ifndef MCORECOLL_FOREIGN_TEST
#include "mpi_library.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures = 0;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      if (check_failures++ < 10) {                                             \
        int check_rank_;                                                       \
        MPI_Comm_rank(MPI_COMM_WORLD, &check_rank_);                           \
        fprintf(stderr, "rank %d: %s:%d: check failed: %s: ", check_rank_,    \
                __FILE__, __LINE__, #cond);                                    \
        fprintf(stderr, __VA_ARGS__);                                          \
        fprintf(stderr, "\n");                                                 \
      }                                                                        \
    }                                                                          \
  } while (0)

/* This process's resident memory in KiB (VmRSS), or -1. */
static inline long resident_kib(void) {
  FILE* f = fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  while (f && fgets(line, sizeof(line), f))
    if (strncmp(line, "VmRSS:", 6) == 0) kib = atol(line + 6);
  if (f) fclose(f);
  return kib;
}

/* Collective over MPI_COMM_WORLD: prints the verdict on rank 0, finalizes, returns the status
 * for main(). */
static int check_finish(const char* name) {
  int mine = check_failures, total = 0, rank = 0;
  PMPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) printf("%s: %s (%d failed checks)\n", name, total ? "FAILED" : "passed", total);
  MPI_Finalize();
  return total ? 1 : 0;
}

#endif
