/* A job to cancel in the middle of a collective: every rank but 0 enters MPI_Bcast and says so;
 * rank 0 sleeps instead of joining (slurm_check.py's scancel ends the job meanwhile). */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char data[4096] = {0};
  if (rank == 0) {
    sleep(300);
  } else {
    printf("wait_in_bcast: rank %d in MPI_Bcast\n", rank);
    fflush(stdout);
  }
  MPI_Bcast(data, (int)sizeof data, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
