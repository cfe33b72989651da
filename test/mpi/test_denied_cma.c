/* Cross Memory Attach refused, as under Docker's default seccomp profile: after MPI_Init every
 * rank installs a seccomp filter that fails process_vm_readv with EPERM. Broadcasts that would
 * take the single-copy path, and alltoalls, must take copy-in/copy-out instead, and be right.
 * Usage: test_denied_cma   (run with MCORECOLL_BCAST=cma, MCORECOLL_ALLTOALL=cma,
 *                           MCORECOLL_VERBOSE=1) */
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

static void alltoalls(MPI_Comm comm) {
  int n, me;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &me);
  static const int blocks[] = {1, 70000};
  for (int b = 0; b < 2; b++) {
    const size_t block = (size_t)blocks[b], total = block * (size_t)n;
    unsigned char* send = malloc(total);
    unsigned char* recv = malloc(total + 1);
    for (size_t i = 0; i < total; i++) send[i] = (unsigned char)(me * 31 + i * 7);
    for (size_t i = 0; i <= total; i++) recv[i] = 0xEE;
    CHECK(MPI_Alltoall(send, (int)block, MPI_BYTE, recv, (int)block, MPI_BYTE, comm) == MPI_SUCCESS, "alltoall");
    int wrong = -1;
    for (int src = 0; src < n && wrong < 0; src++)
      for (size_t k = 0; k < block && wrong < 0; k++)
        if (recv[src * block + k] != (unsigned char)(src * 31 + (me * block + k) * 7)) wrong = src;
    CHECK(wrong < 0, "alltoall of %zu-byte blocks wrong from rank %d", block, wrong);
    CHECK(recv[total] == 0xEE, "byte beyond the alltoall buffer changed");
    free(send);
    free(recv);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  CHECK(deny_syscall(__NR_process_vm_readv, EPERM), "cannot install the seccomp filter");
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  bcasts(MPI_COMM_WORLD);
  bcasts(dup);
  alltoalls(MPI_COMM_WORLD);
  alltoalls(dup);
  MPI_Comm_free(&dup);
  return check_finish("test_denied_cma");
}
