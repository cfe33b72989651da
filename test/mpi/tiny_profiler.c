/* A PMPI tool as profilers are (mpiP, Darshan, Score-P): it defines MPI_Bcast, counts the call
 * and passes it on through PMPI_Bcast; at MPI_Finalize it prints its count. Preloaded with
 * mcorecoll in either order (test/mpi/meson.build's profiler-* tests). */
#include <mpi.h>
#include <stdio.h>

static int calls;

int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  calls++;
  return PMPI_Bcast(buffer, count, datatype, root, comm);
}

int MPI_Finalize(void) {
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  printf("tiny_profiler: rank %d counted MPI_Bcast calls=%d\n", rank, calls);
  fflush(stdout);
  return PMPI_Finalize();
}
