/* MPI_THREAD_MULTIPLE: several threads per rank run collectives at the same time, each on its
 * own communicator, and all start together so that mcorecoll's set-up of those communicators
 * races on first use. Every thread also creates, uses and frees communicators as it goes.
 * Results are checked byte for byte.
 * Usage: test_threads [threads] [iterations]   (default 4 threads, 200 iterations) */
#define _POSIX_C_SOURCE 200809L  /* pthread_barrier_t under -std=c11 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "byte_calls.h"
#include "check.h"

typedef struct {
  int index;
  int iterations;
  MPI_Comm comm;  /* this thread's own communicator */
} job_t;

static pthread_barrier_t start_line;

static void one_round(MPI_Comm comm, int thread, int round, unsigned char* a, unsigned char* b) {
  int n;
  MPI_Comm_size(comm, &n);
  /* Sizes on the shared-memory paths and above the default PMPI threshold. */
  static const size_t bcast_sizes[] = {1, 100, 5000, 40000};
  checked_bcast(comm, a, bcast_sizes[round % 4], round % n, round * 16 + thread);
  checked_alltoall(comm, a, b, (size_t)1 << (round % 12), round * 16 + thread);  /* 1 B .. 2 KiB per peer */
  CHECK(MPI_Barrier(comm) == MPI_SUCCESS, "barrier");
}

static void* run(void* arg) {
  const job_t* job = arg;
  unsigned char* a = malloc(64 * 4096);
  unsigned char* b = malloc(64 * 4096);
  pthread_barrier_wait(&start_line);
  for (int round = 0; round < job->iterations; round++) {
    one_round(job->comm, job->index, round, a, b);
    if (round % 25 == 0) {
      /* A communicator made, used once and freed by this thread alone: set-up and
       * teardown racing with the other threads' collectives. */
      MPI_Comm fresh;
      MPI_Comm_dup(job->comm, &fresh);
      one_round(fresh, job->index, round, a, b);
      MPI_Comm_free(&fresh);
    }
  }
  free(a);
  free(b);
  return NULL;
}

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (provided < MPI_THREAD_MULTIPLE) {
    if (rank == 0) printf("test_threads: the MPI library does not provide MPI_THREAD_MULTIPLE\n");
    MPI_Finalize();
    return 1;
  }
  const int threads = argc > 1 ? atoi(argv[1]) : 4;
  const int iterations = argc > 2 ? atoi(argv[2]) : 200;
  job_t jobs[16];
  pthread_t ids[16];
  pthread_barrier_init(&start_line, NULL, (unsigned)threads);
  for (int t = 0; t < threads && t < 16; t++) {
    /* Distinct communicators, some with the ranks in reverse order. */
    jobs[t].index = t;
    jobs[t].iterations = iterations;
    MPI_Comm_split(MPI_COMM_WORLD, 0, t % 2 ? -rank : rank, &jobs[t].comm);
  }
  for (int t = 0; t < threads && t < 16; t++) pthread_create(&ids[t], NULL, run, &jobs[t]);
  for (int t = 0; t < threads && t < 16; t++) pthread_join(ids[t], NULL);
  for (int t = 0; t < threads && t < 16; t++) MPI_Comm_free(&jobs[t].comm);
  pthread_barrier_destroy(&start_line);
  return check_finish("test_threads");
}
