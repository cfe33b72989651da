/* What MPI_Finalize costs a rank, with and without the job's report (MCORECOLL_REPORT): some
 * collectives on the world and a duplicate first (so that the counters have lines to gather),
 * then each rank times its own MPI_Finalize and prints "finalize_ms <rank> <ms>". */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  double in[64] = {0}, out[64];
  for (int i = 0; i < 200; i++) {
    MPI_Comm comm = i % 2 ? dup : MPI_COMM_WORLD;
    MPI_Allreduce(in, out, 1 + i % 64, MPI_DOUBLE, MPI_SUM, comm);
    MPI_Bcast(in, 1 + i % 64, MPI_DOUBLE, 0, comm);
    MPI_Request r;
    MPI_Ibarrier(comm, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
  MPI_Comm_free(&dup);
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = now_ms();
  MPI_Finalize();
  printf("finalize_ms %d %.3f\n", rank, now_ms() - start);
  return 0;
}
