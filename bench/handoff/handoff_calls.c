/* The calls whose instructions handoff.sh counts under callgrind: `calls` of one collective
 * that mcorecoll hands to the MPI library (the environment forces its path to pmpi), inside
 * run_calls() alone, after a warm-up that sets the communicator up.
 *
 * Usage: handoff_calls bcast|allreduce|gather|scatter|reduce|scan|gatherv|scatterv|alltoallv CALLS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char send_[64 * 64], recv_[64 * 64];
static int counts_[64], displs_[64];

__attribute__((noinline)) void run_calls(const char* which, int calls) {
  for (int i = 0; i < calls; i++) {
    if (!strcmp(which, "bcast")) MPI_Bcast(recv_, 8, MPI_BYTE, 0, MPI_COMM_WORLD);
    else if (!strcmp(which, "allreduce")) MPI_Allreduce(send_, recv_, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    else if (!strcmp(which, "gather")) MPI_Gather(send_, 8, MPI_BYTE, recv_, 8, MPI_BYTE, 0, MPI_COMM_WORLD);
    else if (!strcmp(which, "scatter")) MPI_Scatter(recv_, 8, MPI_BYTE, send_, 8, MPI_BYTE, 0, MPI_COMM_WORLD);
    else if (!strcmp(which, "reduce")) MPI_Reduce(send_, recv_, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    else if (!strcmp(which, "gatherv")) MPI_Gatherv(send_, 8, MPI_BYTE, recv_, counts_, displs_, MPI_BYTE, 0, MPI_COMM_WORLD);
    else if (!strcmp(which, "scatterv")) MPI_Scatterv(send_, counts_, displs_, MPI_BYTE, recv_, 8, MPI_BYTE, 0, MPI_COMM_WORLD);
    else if (!strcmp(which, "alltoallv"))
      MPI_Alltoallv(send_, counts_, displs_, MPI_BYTE, recv_, counts_, displs_, MPI_BYTE, MPI_COMM_WORLD);
    else MPI_Scan(send_, recv_, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const char* which = argc > 1 ? argv[1] : "bcast";
  const int calls = argc > 2 ? atoi(argv[2]) : 1000;
  for (int r = 0; r < 64; r++) counts_[r] = 8, displs_[r] = 8 * r;  /* the v-forms: 8 bytes a rank */
  for (int i = 0; i < 32; i++) MPI_Barrier(MPI_COMM_WORLD);
  run_calls(which, 32);  /* warm-up: set-up, first calls */
  run_calls(which, calls);
  MPI_Finalize();
  return 0;
}
