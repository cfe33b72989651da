/* A program that makes its persistent requests first and starts them many times (issue #39):
 * the initializations promise reuse, so they set the communicator up at once, whatever its
 * count of calls before a set-up (MCORECOLL_SETUP_AFTER, 16 by default), and every start takes
 * mcorecoll's path. On a fresh duplicate of the world: a bcast and an allreduce, initialized
 * once and started 50 times each, values checked at every start.
 *
 * Usage: test_persistent_setup (np 2 or more; run with the default MCORECOLL_SETUP_AFTER). */
#include <mpi.h>
#include <stdio.h>

#include "check.h"
#include "persistent.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  double value[4], in[4], out[4];
  MPI_Request r[2];
  PERSISTENT_BCAST_INIT(value, 4, MPI_DOUBLE, 0, comm, MPI_INFO_NULL, &r[0]);
  PERSISTENT_ALLREDUCE_INIT(in, out, 4, MPI_DOUBLE, MPI_SUM, comm, MPI_INFO_NULL, &r[1]);
  for (int start = 0; start < 50; start++) {
    for (int i = 0; i < 4; i++) value[i] = rank == 0 ? start * 10 + i : -1, in[i] = rank + start + i;
    MPI_Start(&r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    MPI_Start(&r[1]);
    MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    for (int i = 0; i < 4; i++) {
      CHECK(value[i] == start * 10 + i, "start %d: bcast element %d is %g", start, i, value[i]);
      CHECK(out[i] == size * (size - 1) / 2.0 + size * (start + i), "start %d: allreduce element %d is %g", start, i,
            out[i]);
    }
  }
  MPI_Request_free(&r[0]);
  MPI_Request_free(&r[1]);
  MPI_Comm_free(&comm);
  return check_finish("test_persistent_setup");
}
