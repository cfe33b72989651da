/* Erroneous calls made by every rank alike, under MPI_ERRORS_RETURN: the intercepted MPI_X must
 * return the error class that the MPI library's own PMPI_X returns for the same call, and the
 * next correct calls on the same communicator must still deliver the right data (no shared
 * state left half-used).
 * Usage: test_bad_args [null-buffers]
 * The null-buffer cases run only when asked: Open MPI 4.1 does not check null buffers and
 * faults inside PMPI_X itself, with or without mcorecoll; MPICH returns MPI_ERR_BUFFER. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "persistent.h"

static int rank, size;

static int error_class(int code) {
  int cls = code;
  MPI_Error_class(code, &cls);
  return cls;
}

/* Both calls of one case, and the verdict. */
#define SAME_ERROR(name, mine, theirs)                                                   \
  do {                                                                                   \
    const int mine_ = error_class(mine);                                                 \
    const int theirs_ = error_class(theirs);                                             \
    CHECK(theirs_ != MPI_SUCCESS, "%s: the MPI library accepted it (test needs an error)", name); \
    CHECK(mine_ == theirs_, "%s: class %d through mcorecoll, %d from PMPI", name, mine_, theirs_); \
  } while (0)

/* Correct calls on the shared-memory paths (small sizes), checked: what a bad call before them
 * might have broken. */
static void correct_calls(MPI_Comm comm, int round) {
  int n = 0, me = 0;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &me);
  CHECK(MPI_Barrier(comm) == MPI_SUCCESS, "barrier after bad calls");
  for (int root = 0; root < n; root++) {
    int data[300];
    for (int i = 0; i < 300; i++) data[i] = me == root ? round * 1000 + root * 7 + i : -1;
    CHECK(MPI_Bcast(data, 300, MPI_INT, root, comm) == MPI_SUCCESS, "bcast after bad calls");
    for (int i = 0; i < 300; i++)
      if (data[i] != round * 1000 + root * 7 + i) {
        CHECK(0, "bcast after bad calls: data[%d] = %d (root %d)", i, data[i], root);
        break;
      }
  }
  int send[64], recv[64];
  for (int p = 0; p < n; p++) send[p] = round * 1000 + me * 10 + p, recv[p] = -1;
  CHECK(MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, comm) == MPI_SUCCESS, "alltoall after bad calls");
  for (int p = 0; p < n; p++)
    CHECK(recv[p] == round * 1000 + p * 10 + me, "alltoall after bad calls: from %d got %d", p, recv[p]);
  int ones[64], at[64];
  for (int p = 0; p < n; p++) ones[p] = 1, at[p] = n - 1 - p, recv[p] = -1;
  CHECK(MPI_Alltoallv(send, ones, at, MPI_INT, recv, ones, at, MPI_INT, comm) == MPI_SUCCESS, "alltoallv after bad calls");
  for (int p = 0; p < n; p++)
    CHECK(recv[n - 1 - p] == round * 1000 + p * 10 + (n - 1 - me), "alltoallv after bad calls: from %d got %d", p,
          recv[n - 1 - p]);
  MPI_Request req;
  CHECK(PERSISTENT_ALLTOALLV_INIT(send, ones, at, MPI_INT, recv, ones, at, MPI_INT, comm, MPI_INFO_NULL, &req) ==
            MPI_SUCCESS, "alltoallv_init after bad calls");
  for (int start = 0; start < 2; start++) {
    for (int p = 0; p < n; p++) recv[p] = -1;
    MPI_Start(&req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int p = 0; p < n; p++)
      CHECK(recv[n - 1 - p] == round * 1000 + p * 10 + (n - 1 - me), "persistent alltoallv after bad calls: from %d got %d",
            p, recv[n - 1 - p]);
  }
  MPI_Request_free(&req);
  const int mine = round * 100 + me;
  for (int p = 0; p < n; p++) recv[p] = -1;
  CHECK(MPI_Gatherv(&mine, 1, MPI_INT, recv, ones, at, MPI_INT, n - 1, comm) == MPI_SUCCESS, "gatherv after bad calls");
  for (int p = 0; p < n && me == n - 1; p++)
    CHECK(recv[n - 1 - p] == round * 100 + p, "gatherv after bad calls: from %d got %d", p, recv[n - 1 - p]);
}

static void bad_calls(MPI_Comm comm, int null_buffers) {
  int buf[128] = {0}, out[128] = {0};
  int n = 0;
  MPI_Comm_size(comm, &n);
  SAME_ERROR("bcast root = size", MPI_Bcast(buf, 1, MPI_INT, n, comm), PMPI_Bcast(buf, 1, MPI_INT, n, comm));
  SAME_ERROR("bcast root = -5", MPI_Bcast(buf, 1, MPI_INT, -5, comm), PMPI_Bcast(buf, 1, MPI_INT, -5, comm));
  SAME_ERROR("bcast count = -1", MPI_Bcast(buf, -1, MPI_INT, 0, comm), PMPI_Bcast(buf, -1, MPI_INT, 0, comm));
  SAME_ERROR("bcast MPI_DATATYPE_NULL", MPI_Bcast(buf, 1, MPI_DATATYPE_NULL, 0, comm),
             PMPI_Bcast(buf, 1, MPI_DATATYPE_NULL, 0, comm));
  SAME_ERROR("alltoall recvcount = -1", MPI_Alltoall(buf, 1, MPI_INT, out, -1, MPI_INT, comm),
             PMPI_Alltoall(buf, 1, MPI_INT, out, -1, MPI_INT, comm));
  SAME_ERROR("alltoall sendcount = -1", MPI_Alltoall(buf, -1, MPI_INT, out, 1, MPI_INT, comm),
             PMPI_Alltoall(buf, -1, MPI_INT, out, 1, MPI_INT, comm));
  SAME_ERROR("alltoall sendtype null", MPI_Alltoall(buf, 1, MPI_DATATYPE_NULL, out, 1, MPI_INT, comm),
             PMPI_Alltoall(buf, 1, MPI_DATATYPE_NULL, out, 1, MPI_INT, comm));
  SAME_ERROR("alltoall recvtype null", MPI_Alltoall(buf, 1, MPI_INT, out, 1, MPI_DATATYPE_NULL, comm),
             PMPI_Alltoall(buf, 1, MPI_INT, out, 1, MPI_DATATYPE_NULL, comm));
  /* The collectives taken inside one node only (the v-forms decide together from a header line). */
  int counts[64], displs[64], bad[64];
  for (int p = 0; p < n; p++) counts[p] = 1, displs[p] = p, bad[p] = p == n - 1 ? -1 : 1;
  SAME_ERROR("gather sendcount = -1", MPI_Gather(buf, -1, MPI_INT, out, 1, MPI_INT, 0, comm),
             PMPI_Gather(buf, -1, MPI_INT, out, 1, MPI_INT, 0, comm));
  SAME_ERROR("scatter recvcount = -1", MPI_Scatter(buf, 1, MPI_INT, out, -1, MPI_INT, 0, comm),
             PMPI_Scatter(buf, 1, MPI_INT, out, -1, MPI_INT, 0, comm));
  SAME_ERROR("alltoallv a sendcount of -1", MPI_Alltoallv(buf, bad, displs, MPI_INT, out, bad, displs, MPI_INT, comm),
             PMPI_Alltoallv(buf, bad, displs, MPI_INT, out, bad, displs, MPI_INT, comm));
  /* Not MPI_Allgatherv with a negative recvcount: Open MPI 4.1 faults in its own (coll/tuned). */
  SAME_ERROR("gatherv sendtype null", MPI_Gatherv(buf, 1, MPI_DATATYPE_NULL, out, counts, displs, MPI_INT, 0, comm),
             PMPI_Gatherv(buf, 1, MPI_DATATYPE_NULL, out, counts, displs, MPI_INT, 0, comm));
  SAME_ERROR("scatterv recvcount = -1", MPI_Scatterv(buf, counts, displs, MPI_INT, out, -1, MPI_INT, 0, comm),
             PMPI_Scatterv(buf, counts, displs, MPI_INT, out, -1, MPI_INT, 0, comm));
  /* The persistent v-forms agree on their largest block when they initialize: every rank goes
   * to the MPI library's initialization, which raises the error. */
  MPI_Request req = MPI_REQUEST_NULL;
  SAME_ERROR("alltoallv_init a sendcount of -1",
             PERSISTENT_ALLTOALLV_INIT(buf, bad, displs, MPI_INT, out, bad, displs, MPI_INT, comm, MPI_INFO_NULL, &req),
             PMPI_PERSISTENT_ALLTOALLV_INIT(buf, bad, displs, MPI_INT, out, bad, displs, MPI_INT, comm, MPI_INFO_NULL, &req));
  SAME_ERROR("gatherv_init sendtype null",
             PERSISTENT_GATHERV_INIT(buf, 1, MPI_DATATYPE_NULL, out, counts, displs, MPI_INT, 0, comm, MPI_INFO_NULL, &req),
             PMPI_PERSISTENT_GATHERV_INIT(buf, 1, MPI_DATATYPE_NULL, out, counts, displs, MPI_INT, 0, comm, MPI_INFO_NULL,
                                          &req));
  SAME_ERROR("scatterv_init recvcount = -1",
             PERSISTENT_SCATTERV_INIT(buf, counts, displs, MPI_INT, out, -1, MPI_INT, 0, comm, MPI_INFO_NULL, &req),
             PMPI_PERSISTENT_SCATTERV_INIT(buf, counts, displs, MPI_INT, out, -1, MPI_INT, 0, comm, MPI_INFO_NULL, &req));
#if !defined(MPICH_VERSION)  /* MPICH 4.0 asserts in its own ("memcpy ... len_=-8" in yaksa), natively,
                              * for a negative count of MPI_Reduce_scatter_block and MPI_Exscan */
  SAME_ERROR("reduce_scatter_block count = -1", MPI_Reduce_scatter_block(buf, out, -1, MPI_INT, MPI_SUM, comm),
             PMPI_Reduce_scatter_block(buf, out, -1, MPI_INT, MPI_SUM, comm));
  SAME_ERROR("scan op null", MPI_Scan(buf, out, 1, MPI_INT, MPI_OP_NULL, comm),
             PMPI_Scan(buf, out, 1, MPI_INT, MPI_OP_NULL, comm));
  SAME_ERROR("exscan count = -1", MPI_Exscan(buf, out, -1, MPI_INT, MPI_SUM, comm),
             PMPI_Exscan(buf, out, -1, MPI_INT, MPI_SUM, comm));
#endif
  if (null_buffers) {
    SAME_ERROR("bcast null buffer", MPI_Bcast(NULL, 4, MPI_INT, 0, comm), PMPI_Bcast(NULL, 4, MPI_INT, 0, comm));
    SAME_ERROR("alltoall null sendbuf", MPI_Alltoall(NULL, 1, MPI_INT, out, 1, MPI_INT, comm),
               PMPI_Alltoall(NULL, 1, MPI_INT, out, 1, MPI_INT, comm));
    SAME_ERROR("alltoall null recvbuf", MPI_Alltoall(buf, 1, MPI_INT, NULL, 1, MPI_INT, comm),
               PMPI_Alltoall(buf, 1, MPI_INT, NULL, 1, MPI_INT, comm));
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int null_buffers = argc > 1 && strcmp(argv[1], "null-buffers") == 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* Errors without a communicator (MPI_COMM_NULL) go to MPI_COMM_WORLD's or MPI_COMM_SELF's
   * handler, depending on the MPI version. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);  /* inherits MPI_ERRORS_RETURN */

  int buf[4] = {0};
  SAME_ERROR("barrier MPI_COMM_NULL", MPI_Barrier(MPI_COMM_NULL), PMPI_Barrier(MPI_COMM_NULL));
  SAME_ERROR("bcast MPI_COMM_NULL", MPI_Bcast(buf, 1, MPI_INT, 0, MPI_COMM_NULL),
             PMPI_Bcast(buf, 1, MPI_INT, 0, MPI_COMM_NULL));
  SAME_ERROR("alltoall MPI_COMM_NULL", MPI_Alltoall(buf, 1, MPI_INT, buf + 2, 1, MPI_INT, MPI_COMM_NULL),
             PMPI_Alltoall(buf, 1, MPI_INT, buf + 2, 1, MPI_INT, MPI_COMM_NULL));
  /* Bad calls before the first correct one (set-up not done yet), then between correct ones. */
  for (int round = 0; round < 3; round++) {
    bad_calls(dup, null_buffers);
    correct_calls(dup, round);
    correct_calls(MPI_COMM_WORLD, round);
    bad_calls(MPI_COMM_WORLD, null_buffers);
  }
  MPI_Comm_free(&dup);
  return check_finish("test_bad_args");
}
