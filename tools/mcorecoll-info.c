/* mcorecoll-info: what mcorecoll sees in this job, in the spirit of hwloc-ls and ompi_info.
 *
 *     mpirun -np 4 mcorecoll-info
 *
 * Every rank asks the library to describe MPI_COMM_WORLD; rank 0 gathers the texts and prints
 * the versions, the effective settings (once) and, per rank, its host and the node hierarchy
 * it sees. Exit status 1 when the MCORECOLL_* settings are invalid (the errors are printed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
/* PMPI_X: the MPI library's own, past mcorecoll (which serves the PMPI_ names too). */
#include "mpi_library.h"

#include "mcorecoll.h"

static void usage(FILE* out) {
  fprintf(out,
          "Usage: mpirun -np N mcorecoll-info [--help]\n"
          "\n"
          "Prints what mcorecoll (multicore-aware MPI_Barrier, MPI_Bcast, MPI_Alltoall) sees\n"
          "in this job: its version, the MPI library, the effective MCORECOLL_* settings and,\n"
          "for every rank, its host and the hierarchy of its node (packages, NUMA nodes,\n"
          "caches) that the collectives follow.\n"
          "\n"
          "Exit status: 0 on success, 1 when the MCORECOLL_* settings are invalid,\n"
          "2 on a bad command line.\n");
}

/* This rank's description: what mcorecoll_describe() writes, grown until it fits.
 * Returns a malloc'ed text; *status is the describe() result (-1: invalid settings). */
static char* describe(MPI_Comm comm, int* status) {
  int size = 4096;
  char* text = malloc((size_t)size);
  *status = mcorecoll_describe(comm, text, size);
  if (*status >= size) { /* truncated: ask again (no collective: the first call built it all) */
    size = *status + 1;
    text = realloc(text, (size_t)size);
    *status = mcorecoll_describe(comm, text, size);
  }
  return text;
}

/* Copies into `out` (at most `len` bytes, always terminated) the part of a describe() text
 * after the line `start` and before the line `stop` (or up to the end). */
static void section(const char* text, const char* start, const char* stop, char* out, size_t len) {
  const char* begin = strstr(text, start);
  out[0] = '\0';
  if (!begin) return;
  begin += strlen(start);
  const char* end = stop ? strstr(begin, stop) : NULL;
  size_t n = end ? (size_t)(end - begin) : strlen(begin);
  if (n >= len) n = len - 1;
  memcpy(out, begin, n);
  out[n] = '\0';
}

/* Prints every line of `text` with an indent. */
static void print_indented(const char* text, const char* indent) {
  while (*text) {
    const char* eol = strchr(text, '\n');
    int n = eol ? (int)(eol - text) : (int)strlen(text);
    printf("%s%.*s\n", indent, n, text);
    text += n + (eol ? 1 : 0);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* Options are read after MPI_Init (the launcher may add its own) and answered by rank 0. */
  int exit_status = -1;
  for (int i = 1; i < argc && exit_status < 0; ++i) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      if (rank == 0) usage(stdout);
      exit_status = 0;
    } else {
      if (rank == 0) {
        fprintf(stderr, "mcorecoll-info: unknown argument '%s'\n\n", argv[i]);
        usage(stderr);
      }
      exit_status = 2;
    }
  }
  if (exit_status >= 0) {
    MPI_Finalize();
    return exit_status;
  }

  /* First on MPI_COMM_SELF: that call is local, so a rank with invalid settings learns it
   * before any rank enters the collective set-up over MPI_COMM_WORLD (which could not end). */
  int status = 0;
  char* text = describe(MPI_COMM_SELF, &status);
  int bad_rank = status < 0 ? rank : size, first_bad = size;
  MPI_Allreduce(&bad_rank, &first_bad, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first_bad < size) {
    if (rank == first_bad) {
      fprintf(stderr, "mcorecoll-info: invalid mcorecoll settings (rank %d):\n%s", rank, text);
      fflush(stderr);
    }
    free(text);
    /* The library's MPI_Finalize stops the job when the settings are invalid; these ranks
     * used no mcorecoll collective, so the MPI library's own finalize ends them cleanly. */
    PMPI_Finalize();
    return 1;
  }
  free(text);

  /* Each rank's block: its host name on the first line, then its description. */
  char host[MPI_MAX_PROCESSOR_NAME] = "";
  int host_len = 0;
  MPI_Get_processor_name(host, &host_len);
  char* described = describe(MPI_COMM_WORLD, &status);
  size_t mine_len = strlen(host) + 1 + strlen(described) + 1;
  char* mine = malloc(mine_len);
  snprintf(mine, mine_len, "%s\n%s", host, described);
  free(described);

  int length = (int)strlen(mine) + 1; /* with the terminating NUL */
  int* lengths = NULL;
  int* offsets = NULL;
  char* all = NULL;
  if (rank == 0) lengths = malloc(sizeof(int) * (size_t)size);
  MPI_Gather(&length, 1, MPI_INT, lengths, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    offsets = malloc(sizeof(int) * (size_t)size);
    int total = 0;
    for (int r = 0; r < size; ++r) {
      offsets[r] = total;
      total += lengths[r];
    }
    all = malloc((size_t)total);
  }
  MPI_Gatherv(mine, length, MPI_CHAR, all, lengths, offsets, MPI_CHAR, 0, MPI_COMM_WORLD);
  free(mine);

  if (rank == 0) {
    char mpi_version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int version_len = 0;
    MPI_Get_library_version(mpi_version, &version_len);
    mpi_version[strcspn(mpi_version, "\n")] = '\0'; /* first line only */

    printf("mcorecoll %s, built for %s\n", mcorecoll_version(), mcorecoll_mpi());
    printf("MPI library: %s\n", mpi_version);
    printf("Ranks: %d\n\n", size);

    /* Settings: rank 0's, once. The library stops a job whose ranks' settings differ in
     * anything that routes calls, but a rank may still differ in the rest (verbosity). */
    size_t cap = (size_t)lengths[0];
    for (int r = 1; r < size; ++r)
      if ((size_t)lengths[r] > cap) cap = (size_t)lengths[r];
    char* settings0 = malloc(cap);
    char* settings = malloc(cap);
    char* comm = malloc(cap);
    section(all, "settings:\n", "decisions:\n", settings0, cap);
    printf("Effective settings:\n");
    print_indented(settings0, "  ");
    /* The decisions are the same on every rank: they are made from values all ranks share. */
    section(all, "decisions:\n", "learned:\n", comm, cap);
    printf("\nDecisions on MPI_COMM_WORLD (the path of each size band, and why):\n%s", comm);
    /* Rank 0 reads the learned file and hands it on: its view. */
    section(all, "learned:\n", "communicator:\n", comm, cap);
    printf("\nLearned in the run, and remembered across jobs (MCORECOLL_LEARN):\n%s", comm);

    for (int r = 0; r < size; ++r) {
      const char* block = all + offsets[r];
      const char* eol = strchr(block, '\n');
      printf("\nRank %d on host %.*s:\n", r, (int)(eol - block), block);
      section(block, "settings:\n", "decisions:\n", settings, cap);
      if (strcmp(settings, settings0) != 0) {
        printf("  settings (differ from rank 0's):\n");
        print_indented(settings, "    ");
      }
      section(block, "communicator:\n", NULL, comm, cap);
      printf("%s", comm); /* already indented by the library */
    }
    free(settings0);
    free(settings);
    free(comm);
    free(lengths);
    free(offsets);
    free(all);
    fflush(stdout);
  }

  MPI_Finalize();
  return 0;
}
