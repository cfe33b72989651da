/* Many streams at once: T threads per rank, each on a communicator of its own, run alltoalls
 * of one block size at the same time, through mcorecoll (MPI_Alltoall) and through the MPI
 * library alone (PMPI_Alltoall), alternately in the same run. Reports the aggregate bandwidth
 * (bytes each rank sends to others, summed over threads and ranks, per second) of both, their
 * ratio, and whether every result was right.
 *
 * Usage: mcorecoll_streams [--threads 2,4,8] [--block BYTES] [--calls N] [--rounds R] */
#define _GNU_SOURCE
#include <mpi.h>
/* PMPI_X: the MPI library's own, past mcorecoll (which serves the PMPI_ names too). */
#include "mpi_library.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int rank, size, calls = 50;
static size_t block = 64 << 10;

typedef struct {
  MPI_Comm comm;
  int lib;  /* 1: MPI_Alltoall, 0: PMPI_Alltoall */
  int bad;
  unsigned char *send, *recv;
  pthread_barrier_t* start;
} stream_t;

static void* run(void* arg) {
  stream_t* s = arg;
  for (int p = 0; p < size; p++) memset(s->send + p * block, (rank * 16 + p) & 0xff, block);
  pthread_barrier_wait(s->start);
  for (int c = 0; c < calls; c++)
    (s->lib ? MPI_Alltoall : PMPI_Alltoall)(s->send, (int)block, MPI_BYTE, s->recv, (int)block, MPI_BYTE, s->comm);
  for (int p = 0; p < size; p++) s->bad |= s->recv[p * block] != ((p * 16 + rank) & 0xff);
  return NULL;
}

/* Seconds for `threads` streams of `calls` alltoalls each, through `lib`. */
static double timed(stream_t* streams, int threads, int lib) {
  pthread_t ids[64];
  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, (unsigned)threads + 1);
  for (int t = 0; t < threads; t++) {
    streams[t].lib = lib;
    streams[t].start = &start;
    pthread_create(&ids[t], NULL, run, &streams[t]);
  }
  PMPI_Barrier(MPI_COMM_WORLD);
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  pthread_barrier_wait(&start);
  for (int t = 0; t < threads; t++) pthread_join(ids[t], NULL);
  PMPI_Barrier(MPI_COMM_WORLD);
  clock_gettime(CLOCK_MONOTONIC, &b);
  pthread_barrier_destroy(&start);
  return (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
}

static int by_double(const void* x, const void* y) {
  const double a = *(const double*)x, b = *(const double*)y;
  return (a > b) - (a < b);
}

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char threads_text[128] = "2,4,8";
  int rounds = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--threads") == 0) snprintf(threads_text, sizeof(threads_text), "%s", argv[i + 1]);
    else if (strcmp(argv[i], "--block") == 0) block = (size_t)atol(argv[i + 1]);
    else if (strcmp(argv[i], "--calls") == 0) calls = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--rounds") == 0) rounds = atoi(argv[i + 1]);
  }
  if (provided < MPI_THREAD_MULTIPLE) {
    if (rank == 0) fprintf(stderr, "mcorecoll_streams: needs MPI_THREAD_MULTIPLE\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (rank == 0)
    printf("# mcorecoll_streams: np %d, block %zu bytes, %d alltoalls per stream, median of %d rounds\n"
           "# threads  mcorecoll_MB_s  pmpi_MB_s  ratio(mcorecoll/pmpi bandwidth)  check\n",
           size, block, calls, rounds);
  int bad = 0;
  for (char* tok = strtok(threads_text, ","); tok; tok = strtok(NULL, ",")) {
    const int threads = atoi(tok) > 64 ? 64 : atoi(tok);
    stream_t streams[64];
    for (int t = 0; t < threads; t++) {
      memset(&streams[t], 0, sizeof(streams[t]));
      MPI_Comm_dup(MPI_COMM_WORLD, &streams[t].comm);
      streams[t].send = malloc(block * (size_t)size);
      streams[t].recv = malloc(block * (size_t)size);
    }
    double with[64], without[64];
    for (int r = 0; r < rounds && r < 64; r++) {  /* A B B A */
      if (r % 2) { without[r] = timed(streams, threads, 0); with[r] = timed(streams, threads, 1); }
      else { with[r] = timed(streams, threads, 1); without[r] = timed(streams, threads, 0); }
    }
    qsort(with, (size_t)rounds, sizeof(double), by_double);
    qsort(without, (size_t)rounds, sizeof(double), by_double);
    const double bytes = (double)threads * calls * (double)block * (size - 1) * size;
    for (int t = 0; t < threads; t++) {
      bad |= streams[t].bad;
      MPI_Comm_free(&streams[t].comm);
      free(streams[t].send);
      free(streams[t].recv);
    }
    int any = 0;
    PMPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
      printf("%9d  %14.0f  %9.0f  %8.3f  %s\n", threads, bytes / with[rounds / 2] / 1e6,
             bytes / without[rounds / 2] / 1e6, without[rounds / 2] / with[rounds / 2], any ? "WRONG" : "ok");
  }
  MPI_Finalize();
  return bad;
}
