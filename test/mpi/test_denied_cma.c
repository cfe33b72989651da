/* Cross Memory Attach refused, as under Docker's default seccomp profile: after MPI_Init every
 * rank installs a seccomp filter that fails process_vm_readv with EPERM. Broadcasts that would
 * take the single-copy path must take copy-in/copy-out instead, and be right.
 * Usage: test_denied_cma   (run with MCORECOLL_BCAST=cma, MCORECOLL_VERBOSE=1) */
#include <errno.h>
#include <mpi.h>
#include <stdlib.h>

#include "check.h"
#include "deny_syscall.h"

static void bcasts(MPI_Comm comm) {
  int n, me;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &me);
  static const int sizes[] = {1, 4096, 100000, 3 << 20};
  for (int s = 0; s < 4; s++)
    for (int root = 0; root < n; root++) {
      const int bytes = sizes[s];
      unsigned char* buf = malloc((size_t)bytes + 1);
      for (int i = 0; i <= bytes; i++) buf[i] = me == root ? (unsigned char)(i * 7 + root) : 0xEE;
      CHECK(MPI_Bcast(buf, bytes, MPI_BYTE, root, comm) == MPI_SUCCESS, "bcast");
      int wrong = -1;
      for (int i = 0; i < bytes && wrong < 0; i++)
        if (buf[i] != (unsigned char)(i * 7 + root)) wrong = i;
      CHECK(wrong < 0, "bcast of %d bytes from %d wrong at %d", bytes, root, wrong);
      CHECK(buf[bytes] == (me == root ? (unsigned char)(bytes * 7 + root) : 0xEE),
            "byte beyond the buffer changed");
      free(buf);
    }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  CHECK(deny_syscall(__NR_process_vm_readv, EPERM), "cannot install the seccomp filter");
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  bcasts(MPI_COMM_WORLD);
  bcasts(dup);
  MPI_Comm_free(&dup);
  return check_finish("test_denied_cma");
}
