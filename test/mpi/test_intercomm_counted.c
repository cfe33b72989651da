/* The collectives mcorecoll takes only inside one node, on an intercommunicator, where they go
 * straight to the MPI library: each in its three forms, once, so that the statistics
 * (MCORECOLL_STATS=1) must show every one of them as a call handed to the MPI library. The
 * test's own check is that each call returns MPI_SUCCESS; the values are the MPI library's
 * (test_intercomm checks values on intercommunicators).
 *
 * Usage: test_intercomm_counted (np 2 or more). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "persistent.h"

enum { kMax = 64 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world_rank = 0, world_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  if (world_size < 2 || world_size > kMax) {
    if (world_rank == 0) fprintf(stderr, "test_intercomm_counted: np 2 to %d\n", kMax);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  /* Group A: even world ranks, group B: odd ones; the leaders are world ranks 0 and 1. */
  const int in_a = world_rank % 2 == 0;
  MPI_Comm half, inter;
  MPI_Comm_split(MPI_COMM_WORLD, in_a, world_rank, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, in_a ? 1 : 0, 7, &inter);
  int rank = 0, local = 0, remote = 0;
  MPI_Comm_rank(inter, &rank);
  MPI_Comm_size(inter, &local);
  MPI_Comm_remote_size(inter, &remote);
  /* Rooted calls: group A's rank 0 is the root, group B receives from (or sends to) it. */
  const int root = in_a ? (rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;

  int send[kMax * kMax], recv[kMax * kMax], counts[kMax], displs[kMax], remote_counts[kMax];
  for (int i = 0; i < kMax * kMax; i++) send[i] = world_rank * 100 + i;
  for (int i = 0; i < kMax; i++) counts[i] = 1, displs[i] = i, remote_counts[i] = remote;
  const MPI_Datatype t = MPI_INT;
  const MPI_Op sum = MPI_SUM;
  for (int form = 0; form < 3; form++) {
    MPI_Request r[8];
    int rc[8];
#define FORM(k, X, IX, INIT, ...)                                                        \
  rc[k] = form == 0 ? X(__VA_ARGS__) : form == 1 ? IX(__VA_ARGS__, &r[k])               \
                                                 : INIT(__VA_ARGS__, MPI_INFO_NULL, &r[k]); \
  if (form == 2 && rc[k] == MPI_SUCCESS) MPI_Start(&r[k]);                                \
  if (form > 0 && rc[k] == MPI_SUCCESS) MPI_Wait(&r[k], MPI_STATUS_IGNORE);               \
  if (form == 2 && rc[k] == MPI_SUCCESS) MPI_Request_free(&r[k]);                         \
  CHECK(rc[k] == MPI_SUCCESS, "%s, form %d", #X, form);
    FORM(0, MPI_Gather, MPI_Igather, PERSISTENT_GATHER_INIT, send, 1, t, recv, 1, t, root, inter)
    FORM(1, MPI_Gatherv, MPI_Igatherv, PERSISTENT_GATHERV_INIT, send, 1, t, recv, counts, displs, t, root, inter)
    FORM(2, MPI_Scatter, MPI_Iscatter, PERSISTENT_SCATTER_INIT, send, 1, t, recv, 1, t, root, inter)
    FORM(3, MPI_Scatterv, MPI_Iscatterv, PERSISTENT_SCATTERV_INIT, send, counts, displs, t, recv, 1, t, root, inter)
    FORM(4, MPI_Allgatherv, MPI_Iallgatherv, PERSISTENT_ALLGATHERV_INIT, send, 1, t, recv, counts, displs, t, inter)
    FORM(5, MPI_Alltoallv, MPI_Ialltoallv, PERSISTENT_ALLTOALLV_INIT, send, counts, displs, t, recv, counts, displs, t,
         inter)
    /* Both groups reduce vectors of local x remote elements (the standard has them equal). */
    FORM(6, MPI_Reduce_scatter_block, MPI_Ireduce_scatter_block, PERSISTENT_REDUCE_SCATTER_BLOCK_INIT, send, recv,
         remote, t, sum, inter)
    FORM(7, MPI_Reduce_scatter, MPI_Ireduce_scatter, PERSISTENT_REDUCE_SCATTER_INIT, send, recv, remote_counts, t, sum,
         inter)
#undef FORM
  }
  (void)local;
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
  return check_finish("test_intercomm_counted");
}
