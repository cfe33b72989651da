/* Catches any early release from a barrier, in each of its forms: MPI_Barrier, MPI_Ibarrier
 * completed by MPI_Test and MPI_Wait, and a persistent barrier started again and again. Every
 * rank bumps a counter in shared memory (an MPI shared window) before the barrier; after it,
 * the counter must show every rank's bump. Random delays vary who arrives last; several
 * communicators (world, dup, halves, reversed) are used interleaved, each with its own counter.
 * Usage: test_barrier_order [iterations]   (default 20000) */
#include <mpi.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "persistent.h"

#define NCOMMS 4

static void random_delay(unsigned* seed) {
  const unsigned r = (unsigned)rand_r(seed) % 64;
  if (r == 0) usleep(r % 50 + 1);                      /* now and then: a real sleep */
  else if (r < 8) for (volatile int i = 0; i < 2000 * (int)r; i++) {} /* a little work */
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const long iterations = argc > 1 ? atol(argv[1]) : 20000;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* The test needs all ranks to share memory: one real node. */
  MPI_Comm shared;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared);
  int shared_size;
  MPI_Comm_size(shared, &shared_size);
  if (shared_size != size) {
    if (rank == 0) printf("test_barrier_order: needs all ranks on one node\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  long* counters;
  MPI_Win win;
  MPI_Win_allocate_shared(rank == 0 ? NCOMMS * 16 * sizeof(long) : 0, sizeof(long), MPI_INFO_NULL,
                          shared, &counters, &win);
  MPI_Aint bytes;
  int disp;
  MPI_Win_shared_query(win, 0, &bytes, &disp, &counters);
  if (rank == 0) for (int i = 0; i < NCOMMS * 16; i++) counters[i] = 0;
  PMPI_Barrier(MPI_COMM_WORLD);

  MPI_Comm comms[NCOMMS];
  comms[0] = MPI_COMM_WORLD;
  MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &comms[2]);
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &comms[3]);
  /* Ranks of the halves count in two counters: slot 16*c + color. */
  int slot[NCOMMS] = {0, 16, 32 + 8 * (rank % 2), 48};
  int csize[NCOMMS];
  long done[NCOMMS] = {0, 0, 0, 0};
  for (int c = 0; c < NCOMMS; c++) MPI_Comm_size(comms[c], &csize[c]);
  MPI_Request persistent[NCOMMS];
  for (int c = 0; c < NCOMMS; c++) PERSISTENT_BARRIER_INIT(comms[c], MPI_INFO_NULL, &persistent[c]);

  unsigned seed = 12345u + (unsigned)rank * 7919u;
  for (long it = 0; it < iterations; it++) {
    const int c = (int)(it % NCOMMS);
    long* counter = &counters[slot[c]];
    random_delay(&seed);
    __atomic_fetch_add(counter, 1, __ATOMIC_SEQ_CST);
    switch ((it / NCOMMS) % 3) {
      case 0: MPI_Barrier(comms[c]); break;
      case 1: {
        MPI_Request request;
        MPI_Ibarrier(comms[c], &request);
        int flag = 0;
        for (int polls = (int)(it % 5); polls > 0 && !flag; polls--) MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
        if (!flag) MPI_Wait(&request, MPI_STATUS_IGNORE);
        break;
      }
      default:
        MPI_Start(&persistent[c]);
        MPI_Wait(&persistent[c], MPI_STATUS_IGNORE);
    }
    done[c]++;
    const long seen = __atomic_load_n(counter, __ATOMIC_SEQ_CST);
    CHECK(seen >= done[c] * csize[c], "early release: iteration %ld comm %d saw %ld < %ld", it, c,
          seen, done[c] * csize[c]);
    CHECK(seen <= (done[c] + 1) * csize[c], "counter too large: %ld", seen);
  }
  for (int c = 0; c < NCOMMS; c++) MPI_Request_free(&persistent[c]);
  for (int c = 1; c < NCOMMS; c++) MPI_Comm_free(&comms[c]);
  MPI_Win_free(&win);
  MPI_Comm_free(&shared);
  return check_finish("test_barrier_order");
}
