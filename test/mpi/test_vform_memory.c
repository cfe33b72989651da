/* The v-forms' memory of their last header line (entry/call_decision.hpp, handed_on_by_memory):
 * while the size the last line found goes to PMPI, every rank skips the line and looks again at
 * the 64th call (then after twice as many each time). A rank may count its skips in the entry
 * point (nothing of its own pending) or in the full decision (an operation pending): both must
 * count alike, or at the 64th call some ranks post a header line that the others never read,
 * and the call hangs or its blocks come wrong.
 *
 * Rank 0 keeps a non-blocking barrier of another communicator open over most calls (its full
 * decision), the others have nothing pending (the entry point); 200 calls of each v-form with
 * 8-byte blocks, then some with blocks large enough for shared memory, every block checked.
 * Run with rows that give 8 bytes to PMPI and larger sizes to shared memory, e.g.
 * MCORECOLL_GATHERV_PATHS_NP3=pmpi:64 shm:1M pmpi.
 * Usage: test_vform_memory */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

static unsigned char value(int call, int from, int to, int i) { return (unsigned char)(call * 31 + from * 7 + to * 3 + i); }

static void one_call(MPI_Comm comm, int which, int call, int bytes) {
  const int root = call % size;
  unsigned char* send = malloc((size_t)bytes * (size_t)size);
  unsigned char* recv = malloc((size_t)bytes * (size_t)size);
  int* counts = malloc(sizeof(int) * (size_t)size);
  int* displs = malloc(sizeof(int) * (size_t)size);
  for (int r = 0; r < size; r++) counts[r] = bytes, displs[r] = r * bytes;
  memset(recv, 0xee, (size_t)bytes * (size_t)size);
  if (which == 0) { /* gatherv: each rank's block to the root */
    for (int i = 0; i < bytes; i++) send[i] = value(call, rank, root, i);
    MPI_Gatherv(send, bytes, MPI_BYTE, recv, counts, displs, MPI_BYTE, root, comm);
    if (rank == root)
      for (int r = 0; r < size; r++)
        for (int i = 0; i < bytes; i++)
          CHECK(recv[r * bytes + i] == value(call, r, root, i), "gatherv call %d from %d byte %d", call, r, i);
  } else if (which == 1) { /* scatterv: the root's block for each rank */
    for (int r = 0; r < size; r++)
      for (int i = 0; i < bytes; i++) send[r * bytes + i] = value(call, root, r, i);
    MPI_Scatterv(send, counts, displs, MPI_BYTE, recv, bytes, MPI_BYTE, root, comm);
    for (int i = 0; i < bytes; i++) CHECK(recv[i] == value(call, root, rank, i), "scatterv call %d byte %d", call, i);
  } else { /* alltoallv */
    for (int r = 0; r < size; r++)
      for (int i = 0; i < bytes; i++) send[r * bytes + i] = value(call, rank, r, i);
    MPI_Alltoallv(send, counts, displs, MPI_BYTE, recv, counts, displs, MPI_BYTE, comm);
    for (int r = 0; r < size; r++)
      for (int i = 0; i < bytes; i++)
        CHECK(recv[r * bytes + i] == value(call, r, rank, i), "alltoallv call %d from %d byte %d", call, r, i);
  }
  free(send);
  free(recv);
  free(counts);
  free(displs);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm comm, other;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_dup(MPI_COMM_WORLD, &other);
  for (int i = 0; i < 20; i++) {  /* both communicators set up (MCORECOLL_SETUP_AFTER) */
    MPI_Barrier(comm);
    MPI_Barrier(other);
  }
  for (int which = 0; which < 3; which++) {
    for (int block = 0; block < 6; block++) {
      /* A non-blocking barrier on the other communicator: the others complete theirs at once,
       * rank 0 only after 30 calls, its operation pending over them. */
      MPI_Request pending;
      MPI_Ibarrier(other, &pending);
      if (rank != 0) MPI_Wait(&pending, MPI_STATUS_IGNORE);
      for (int k = 0; k < 40; k++) {
        const int call = block * 40 + k;
        one_call(comm, which, call, call >= 200 && call % 2 ? 256 : 8);
        if (rank == 0 && k == 29) MPI_Wait(&pending, MPI_STATUS_IGNORE);
      }
    }
  }
  MPI_Comm_free(&other);
  MPI_Comm_free(&comm);
  return check_finish("test_vform_memory");
}
