/* Threads that make communicators: under MPI_THREAD_MULTIPLE, several threads per rank loop
 * over MPI_Comm_create_group on MPI_COMM_WORLD (the tag is the thread's number; the group is
 * the whole world or its first half, in turn), then barrier, bcast and alltoall on the new
 * communicator, results checked, then free it. The first collective on each new communicator
 * sets mcorecoll up on it while the other threads create theirs: that set-up must not create
 * communicators where that can deadlock with them (Open MPI 4.1).
 * Usage: test_thread_comms [threads] [iterations]   (default 4 threads, 40 iterations) */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "byte_calls.h"
#include "check.h"

static MPI_Group world_group, half_group;
static int world_rank, world_size, half_size, iterations = 40;

static void use(MPI_Comm comm, int thread, int round, unsigned char* a, unsigned char* b) {
  int n;
  MPI_Comm_size(comm, &n);
  CHECK(MPI_Barrier(comm) == MPI_SUCCESS, "barrier");
  /* Sizes for the slots, the ring and (in auto mode with the defaults) PMPI. */
  static const size_t bcast_sizes[] = {4, 1000, 20000};
  checked_bcast(comm, a, bcast_sizes[round % 3], round % n, round * 16 + thread);
  checked_alltoall(comm, a, b, round % 2 ? 8 : 3000, round * 16 + thread);
}

static void* run(void* arg) {
  const int thread = (int)(long)arg;
  unsigned char* a = malloc((size_t)world_size * 20000);
  unsigned char* b = malloc((size_t)world_size * 20000);
  for (int round = 0; round < iterations; round++) {
    const int half = (round + thread) % 2;
    if (half && world_rank >= half_size) continue;  /* not in the group: no call at all */
    MPI_Comm comm;
    CHECK(MPI_Comm_create_group(MPI_COMM_WORLD, half ? half_group : world_group, thread, &comm) == MPI_SUCCESS,
          "create_group");
    use(comm, thread, round, a, b);
    MPI_Comm_free(&comm);
  }
  free(a);
  free(b);
  return NULL;
}

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  if (provided < MPI_THREAD_MULTIPLE) {
    if (world_rank == 0) printf("test_thread_comms: the MPI library does not provide MPI_THREAD_MULTIPLE\n");
    MPI_Finalize();
    return 1;
  }
  const int threads = argc > 1 ? atoi(argv[1]) : 4;
  if (argc > 2) iterations = atoi(argv[2]);
  half_size = (world_size + 1) / 2;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  int range[1][3] = {{0, half_size - 1, 1}};
  MPI_Group_range_incl(world_group, 1, range, &half_group);
  pthread_t ids[16];
  for (long t = 0; t < threads && t < 16; t++) pthread_create(&ids[t], NULL, run, (void*)t);
  for (int t = 0; t < threads && t < 16; t++) pthread_join(ids[t], NULL);
  MPI_Group_free(&half_group);
  MPI_Group_free(&world_group);
  return check_finish("test_thread_comms");
}
