/* One rank dies by SIGKILL in the middle of a collective, the others already waiting inside
 * mcorecoll's shared-memory algorithm for it. The launcher must end the job; the test driver
 * (mpirun_check.py --no-leftovers) then checks that no rank still runs and that nothing is
 * left in /dev/shm.
 * Usage: test_crash barrier|bcast|alltoall */
#define _POSIX_C_SOURCE 200809L  /* kill, nanosleep under -std=c11 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* coll = argc > 1 ? argv[1] : "bcast";
  const int victim = size - 1;
  static char a[1 << 16], b[1 << 16];
  for (int round = 0;; round++) {
    if (round == 100 && rank == victim) {
      /* The others are inside the collective of this round by now (or soon): it is the
       * bcast's root, and a peer every alltoall and barrier waits for. */
      const struct timespec pause = {0, 200 * 1000 * 1000};
      nanosleep(&pause, NULL);
      printf("test_crash: rank %d dies in %s round %d\n", rank, coll, round);
      fflush(stdout);
      kill(getpid(), SIGKILL);
    }
    if (strcmp(coll, "barrier") == 0) MPI_Barrier(MPI_COMM_WORLD);
    else if (strcmp(coll, "bcast") == 0) MPI_Bcast(a, 1000, MPI_BYTE, victim, MPI_COMM_WORLD);
    else MPI_Alltoall(a, 64, MPI_BYTE, b, 64, MPI_BYTE, MPI_COMM_WORLD);
  }
}
