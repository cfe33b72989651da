/* One MPI_Barrier and nothing else. Not linked with mcorecoll: the tests of mcorecoll-run
 * preload the library into it, and its statistics show that the barrier went through it. */
#include <stdio.h>

#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("one_barrier: done\n");
  MPI_Finalize();
  return 0;
}
