/* Rank 1 runs with a different MCORECOLL_BARRIER than the others (set before its first
 * collective, which is when mcorecoll reads its settings). The job must stop with a message
 * instead of deadlocking. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1) setenv("MCORECOLL_BARRIER", "pmpi", 1);
  MPI_Barrier(MPI_COMM_WORLD);
  printf("test_mismatch: the barrier returned, but it should have stopped the job\n");
  MPI_Finalize();
  return 0;
}
