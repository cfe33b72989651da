/* memfd refused (a seccomp filter makes memfd_create fail with ENOSYS, as on kernels before
 * 3.17): with MCORECOLL_SEGMENT=auto the segments come from /dev/shm instead, with
 * MCORECOLL_SEGMENT=memfd the collectives go to the MPI library; results right either way.
 * Usage: test_segment_fallback posix|none   (the segments expected to be mapped after) */
#include <errno.h>
#include <mpi.h>
#include <stdlib.h>

#include "check.h"
#include "deny_syscall.h"
#include "segment_maps.h"

static void collectives(MPI_Comm comm) {
  int n, me;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &me);
  CHECK(MPI_Barrier(comm) == MPI_SUCCESS, "barrier");
  for (int root = 0; root < n; root++) {
    int value = me == root ? 1000 + root : -1;
    CHECK(MPI_Bcast(&value, 1, MPI_INT, root, comm) == MPI_SUCCESS && value == 1000 + root,
          "bcast from %d gave %d", root, value);
  }
  int* out = malloc(sizeof(int) * (size_t)n);
  int* in = malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < n; i++) out[i] = me * 100 + i, in[i] = -1;
  CHECK(MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, comm) == MPI_SUCCESS, "alltoall");
  for (int i = 0; i < n; i++) CHECK(in[i] == i * 100 + me, "alltoall block %d: %d", i, in[i]);
  free(out);
  free(in);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int expect_posix = argc > 1 && strcmp(argv[1], "posix") == 0;
  CHECK(argc > 1 && (expect_posix || strcmp(argv[1], "none") == 0), "usage: test_segment_fallback posix|none");
  CHECK(deny_syscall(__NR_memfd_create, ENOSYS), "cannot install the seccomp filter");
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  collectives(MPI_COMM_WORLD);
  collectives(dup);
  CHECK(segment_maps(MEMFD_SEGMENT) == 0, "a memfd segment is mapped although memfd_create fails");
  CHECK(expect_posix ? segment_maps(POSIX_SEGMENT) >= 2 : segment_maps(POSIX_SEGMENT) == 0,
        "%d POSIX segments mapped", segment_maps(POSIX_SEGMENT));
  MPI_Comm_free(&dup);
  return check_finish("test_segment_fallback");
}
