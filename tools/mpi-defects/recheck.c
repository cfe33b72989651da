/* Re-checks, natively (no mcorecoll), defects that doc/mpi-defects.md records for MPICH, so that
 * each can be told apart by MPI release. Every case prints "CASE: present" or "CASE: absent";
 * a case that crashes the job is present. Run each case as its own job:
 *   mpiexec -np 2 recheck reduce-in-place   (MPI_Reduce, MPI_IN_PLACE, root 1, 4 KiB)
 *   mpiexec -np 2 recheck testall-persistent (MPI_Testall on persistent collective requests)
 *   mpiexec -np 2 recheck allgather-init     (MPI_Allgather_init: the others' blocks at a later start)
 *   mpiexec -np 2 recheck gather-init        (MPI_Gather_init: the blocks at the root)
 *   mpiexec -np 2 recheck scatter-init       (MPI_Scatter_init: the leaves' blocks at a later start)
 *   mpiexec -np 2 recheck max-uint64         (MPI_MAX of MPI_UINT64_T above 2^63: compared as signed) */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int rank, size;

static int report(const char* name, int wrong) {
  int any = 0;
  MPI_Allreduce(&wrong, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) printf("%s: %s\n", name, any ? "present" : "absent");
  return 0;
}

static int reduce_in_place(void) {
  enum { n = 1024 };  /* 4 KiB of ints, above the 2 KiB where MPICH 4.0.2 crashes */
  int buf[n], wrong = 0;
  for (int i = 0; i < n; i++) buf[i] = rank + i;
  if (rank == 1) MPI_Reduce(MPI_IN_PLACE, buf, n, MPI_INT, MPI_SUM, 1, MPI_COMM_WORLD);
  else MPI_Reduce(buf, NULL, n, MPI_INT, MPI_SUM, 1, MPI_COMM_WORLD);
  if (rank == 1)
    for (int i = 0; i < n; i++) wrong |= buf[i] != size * i + size * (size - 1) / 2;
  return report("reduce-in-place", wrong);
}

static int testall_persistent(void) {
  int x = rank, flag = 0, wrong = 0;
  MPI_Request r[2];
  MPI_Status statuses[2];
  MPI_Bcast_init(&x, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]);
  MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]);
  MPI_Startall(2, r);
  for (long polls = 0; !flag && polls < 100000000; polls++)
    if (MPI_Testall(2, r, &flag, statuses) != MPI_SUCCESS) { wrong = 1; break; }
  wrong |= !flag || x != 0;
  if (!flag) MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  MPI_Request_free(&r[0]);
  MPI_Request_free(&r[1]);
  return report("testall-persistent", wrong);
}

/* Starts a persistent gathering collective three times with new data each time. */
static int persistent_blocks(const char* name) {
  enum { n = 256 };
  static int send[64 * n], recv[64 * n];
  MPI_Request r;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (!strcmp(name, "allgather-init"))
    MPI_Allgather_init(send, n, MPI_INT, recv, n, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
  else if (!strcmp(name, "gather-init"))
    MPI_Gather_init(send, n, MPI_INT, recv, n, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
  else
    MPI_Scatter_init(send, n, MPI_INT, recv, n, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
  int wrong = 0;
  for (int start = 0; start < 3; start++) {
    for (int i = 0; i < size * n; i++) send[i] = 1000000 * start + 1000 * rank + i, recv[i] = -1;
    if (MPI_Start(&r) != MPI_SUCCESS || MPI_Wait(&r, MPI_STATUS_IGNORE) != MPI_SUCCESS) wrong = 1;
    if (!strcmp(name, "allgather-init") || (!strcmp(name, "gather-init") && rank == 0)) {
      for (int s = 0; s < size; s++)
        for (int i = 0; i < n; i++) wrong |= recv[s * n + i] != 1000000 * start + 1000 * s + i;
    } else if (!strcmp(name, "scatter-init")) {
      for (int i = 0; i < n; i++) wrong |= recv[i] != 1000000 * start + rank * n + i;
    }
  }
  MPI_Request_free(&r);
  return report(name, wrong);
}

static int max_uint64(void) {
  uint64_t mine = rank == 0 ? UINT64_MAX : 24, most = 0;
  MPI_Allreduce(&mine, &most, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  return report("max-uint64", most != UINT64_MAX);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* c = argc > 1 ? argv[1] : "";
  if (!strcmp(c, "reduce-in-place")) reduce_in_place();
  else if (!strcmp(c, "testall-persistent")) testall_persistent();
  else if (!strcmp(c, "max-uint64")) max_uint64();
  else if (!strcmp(c, "allgather-init") || !strcmp(c, "gather-init") || !strcmp(c, "scatter-init"))
    persistent_blocks(c);
  else if (rank == 0) printf("recheck: unknown case '%s'\n", c);
  MPI_Finalize();
  return 0;
}
