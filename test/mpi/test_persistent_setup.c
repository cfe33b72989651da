/* A program that makes its persistent requests first and starts them many times (issue #39):
 * the initializations promise reuse, so they set the communicator up at once, whatever its
 * count of calls before a set-up (MCORECOLL_SETUP_AFTER, 16 by default), and every start takes
 * mcorecoll's path. On a fresh duplicate of the world: a bcast and an allreduce, initialized
 * once and started 50 times each, values checked at every start.
 *
 * `nonblocking`: a program whose collectives on the world are all non-blocking (issue #39):
 * MPI_Ibcast and MPI_Iallreduce, 50 times each, each waited for, values checked. The world's
 * set-up is made in MPI_Init, so its 16th collective completes it and the calls from there on
 * take mcorecoll's path, though none of them may wait for a set-up.
 *
 * Usage: test_persistent_setup [nonblocking] (np 2 or more; the default MCORECOLL_SETUP_AFTER). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "persistent.h"

static int nonblocking_world(void) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int call = 0; call < 50; call++) {
    double value[4], in[4], out[4];
    for (int i = 0; i < 4; i++) value[i] = rank == 0 ? call * 10 + i : -1, in[i] = rank + call + i;
    MPI_Request r;
    MPI_Ibcast(value, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Iallreduce(in, out, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    for (int i = 0; i < 4; i++) {
      CHECK(value[i] == call * 10 + i, "call %d: ibcast element %d is %g", call, i, value[i]);
      CHECK(out[i] == size * (size - 1) / 2.0 + size * (call + i), "call %d: iallreduce element %d is %g", call, i,
            out[i]);
    }
  }
  return check_finish("test_persistent_setup");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc > 1 && strcmp(argv[1], "nonblocking") == 0) return nonblocking_world();
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
