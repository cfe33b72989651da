/* Shared memory held for many communicators: creates communicators (duplicates of the world)
 * and uses each once (a barrier, a 1 KiB bcast and a 4-byte alltoall), keeps them alive, and
 * after 1, 10, 100, ... of them reports the node's shared memory (Shmem of /proc/meminfo, all
 * processes of the machine) and this job's (RssShmem of every rank, summed), grown since the
 * start. With --pmpi the same calls go to PMPI_X: the MPI library alone.
 *
 * Usage: mcorecoll_memory [--comms 1,10,100,1000] [--pmpi] [--max-per-comm KIB]
 * --max-per-comm: exit with status 1 if the node's shared memory grew by more than this many
 * KiB per communicator at the last count (a check for tests). */
#define _GNU_SOURCE
#include <mpi.h>
/* PMPI_X: the MPI library's own, past mcorecoll (which serves the PMPI_ names too). */
#include "mpi_library.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long meminfo_kib(const char* field) {
  FILE* f = fopen("/proc/meminfo", "r");
  char line[256];
  long kib = -1;
  const size_t n = strlen(field);
  while (f && fgets(line, sizeof(line), f))
    if (strncmp(line, field, n) == 0 && line[n] == ':') kib = atol(line + n + 1);
  if (f) fclose(f);
  return kib;
}

static long status_kib(const char* field) {
  FILE* f = fopen("/proc/self/status", "r");
  char line[256];
  long kib = 0;
  const size_t n = strlen(field);
  while (f && fgets(line, sizeof(line), f))
    if (strncmp(line, field, n) == 0 && line[n] == ':') kib = atol(line + n + 1);
  if (f) fclose(f);
  return kib;
}

/* One use of a communicator, checked: a wrong result makes the numbers meaningless. */
static int use(MPI_Comm comm, int pmpi) {
  int rank, size, bad = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  char buf[1024];
  int send[1024], recv[1024];
  memset(buf, rank == 0 ? 7 : 0, sizeof(buf));
  for (int p = 0; p < size; p++) send[p] = rank * 1000 + p;
  if (pmpi) {
    PMPI_Barrier(comm);
    PMPI_Bcast(buf, sizeof(buf), MPI_BYTE, 0, comm);
    PMPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, comm);
  } else {
    MPI_Barrier(comm);
    MPI_Bcast(buf, sizeof(buf), MPI_BYTE, 0, comm);
    MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, comm);
  }
  for (size_t i = 0; i < sizeof(buf); i++) bad |= buf[i] != 7;
  for (int p = 0; p < size; p++) bad |= recv[p] != p * 1000 + rank;
  return bad;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, pmpi = 0;
  long max_per_comm = -1;
  char counts_text[256] = "1,10,100,1000";
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--pmpi") == 0) pmpi = 1;
    else if (strcmp(argv[i], "--comms") == 0 && i + 1 < argc) snprintf(counts_text, sizeof(counts_text), "%s", argv[++i]);
    else if (strcmp(argv[i], "--max-per-comm") == 0 && i + 1 < argc) max_per_comm = atol(argv[++i]);
    else {
      if (rank == 0) fprintf(stderr, "usage: mcorecoll_memory [--comms 1,10,100,1000] [--pmpi] [--max-per-comm KIB]\n");
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  int counts[32], ncounts = 0, most = 0;
  for (char* tok = strtok(counts_text, ","); tok && ncounts < 32; tok = strtok(NULL, ",")) {
    counts[ncounts] = atoi(tok);
    if (counts[ncounts] > most) most = counts[ncounts];
    ncounts++;
  }
  MPI_Comm* comms = calloc((size_t)most, sizeof(MPI_Comm));
  PMPI_Barrier(MPI_COMM_WORLD);
  const long shmem0 = meminfo_kib("Shmem");
  long rss0 = status_kib("RssShmem"), rss0_sum = 0;
  PMPI_Reduce(&rss0, &rss0_sum, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("# mcorecoll_memory: np %d, %s; communicators: duplicates of the world, each used once\n"
           "# comms  node_shmem_grown_kib  per_comm_kib  job_rss_shmem_grown_kib\n",
           size, pmpi ? "PMPI alone" : "through mcorecoll");
  int made = 0, bad = 0, status = 0;
  for (int c = 0; c < ncounts; c++) {
    for (; made < counts[c]; made++) {
      MPI_Comm_dup(MPI_COMM_WORLD, &comms[made]);
      bad |= use(comms[made], pmpi);
    }
    PMPI_Barrier(MPI_COMM_WORLD);
    const long shmem = meminfo_kib("Shmem") - shmem0;
    long rss = status_kib("RssShmem") - rss0, rss_sum = 0;
    PMPI_Reduce(&rss, &rss_sum, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      const long per = made ? shmem / made : 0;
      printf("%8d  %20ld  %12ld  %23ld\n", made, shmem, per, rss_sum);
      if (c == ncounts - 1 && max_per_comm >= 0 && per > max_per_comm) {
        printf("mcorecoll_memory: %ld KiB per communicator, more than %ld\n", per, max_per_comm);
        status = 1;
      }
    }
  }
  int any_bad = 0;
  PMPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && any_bad) printf("mcorecoll_memory: wrong results\n");
  for (int i = 0; i < made; i++) MPI_Comm_free(&comms[i]);
  free(comms);
  PMPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return any_bad ? 1 : status;
}
