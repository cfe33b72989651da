/* A bcast and an alltoall of plain bytes, their data made from a pattern and checked, for the
 * tests that drive many calls (threads, the pool): a failed check names the call and the first
 * wrong byte. `salt` varies the data from call to call. */
#ifndef MCORECOLL_TEST_BYTE_CALLS_H
#define MCORECOLL_TEST_BYTE_CALLS_H

#include <mpi.h>
#include <stddef.h>

#include "check.h"

static unsigned char byte_pattern(int a, int b, size_t i, int salt) {
  return (unsigned char)(a * 37 + b * 11 + i * 7 + (size_t)salt * 3);
}

/* `buf`: at least `bytes`. */
static void checked_bcast(MPI_Comm comm, unsigned char* buf, size_t bytes, int root, int salt) {
  int me;
  MPI_Comm_rank(comm, &me);
  for (size_t i = 0; i < bytes; i++) buf[i] = me == root ? byte_pattern(root, 0, i, salt) : 0;
  CHECK(MPI_Bcast(buf, (int)bytes, MPI_BYTE, root, comm) == MPI_SUCCESS, "bcast");
  for (size_t i = 0; i < bytes; i++)
    if (buf[i] != byte_pattern(root, 0, i, salt)) {
      CHECK(0, "salt %d: bcast of %zu bytes from %d wrong at %zu", salt, bytes, root, i);
      break;
    }
}

/* `send`, `recv`: at least `block` bytes per rank of `comm`. */
static void checked_alltoall(MPI_Comm comm, unsigned char* send, unsigned char* recv, size_t block, int salt) {
  int n, me;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &me);
  for (int p = 0; p < n; p++)
    for (size_t i = 0; i < block; i++) send[p * block + i] = byte_pattern(me, p, i, salt);
  CHECK(MPI_Alltoall(send, (int)block, MPI_BYTE, recv, (int)block, MPI_BYTE, comm) == MPI_SUCCESS, "alltoall");
  for (int p = 0; p < n; p++)
    for (size_t i = 0; i < block; i++)
      if (recv[p * block + i] != byte_pattern(p, me, i, salt)) {
        CHECK(0, "salt %d: alltoall block of %zu bytes from %d wrong at %zu", salt, block, p, i);
        p = n;
        break;
      }
}

#endif
