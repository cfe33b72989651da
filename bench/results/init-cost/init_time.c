/* Seconds MPI_Init takes on each rank; rank 0 prints the slowest. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
int main(int argc, char** argv) {
  double t0 = now();
  MPI_Init(&argc, &argv);
  double mine = now() - t0, most = 0;
  PMPI_Reduce(&mine, &most, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) printf("%.6f\n", most);
  MPI_Finalize();
  return 0;
}
