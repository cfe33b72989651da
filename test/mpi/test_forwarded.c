/* The collectives mcorecoll has no algorithm for (wrappers/collectives.txt's `forward`):
 * MPI_Alltoallw and the neighbourhood collectives, blocking, non-blocking and persistent. Each
 * must reach the MPI library untouched (its results checked here) and be counted in the
 * statistics (the test's --expect lines) and explained in verbose mode.
 * Usage: test_forwarded   (on a one-dimensional periodic Cartesian communicator of every rank) */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "persistent.h"

enum { BLOCKING, NONBLOCKING, PERSISTENT };
static const char* form_name[] = {"blocking", "non-blocking", "persistent"};
static int rank, size, left, right;

/* Completes a non-blocking call, or starts and completes a persistent one twice and frees it. */
static void complete(int form, MPI_Request* request, void (*refill)(void), void (*check)(const char*)) {
  if (form == NONBLOCKING) {
    MPI_Wait(request, MPI_STATUS_IGNORE);
  } else if (form == PERSISTENT) {
    for (int start = 0; start < 2; start++) {
      refill();
      MPI_Start(request);
      MPI_Wait(request, MPI_STATUS_IGNORE);
      check("persistent");
    }
    MPI_Request_free(request);
  }
}

static int send[64], recv[64];
static void clear(void) { memset(recv, 0xff, sizeof recv); }

/* Neighbour exchanges: to the left (index 0) and the right (index 1) 1000 * rank + index; from
 * the left comes what it sent to its right, from the right what it sent to its left. */
static void fill_pair(void) {
  send[0] = 1000 * rank;
  send[1] = 1000 * rank + 1;
  clear();
}
static void check_pair(const char* what) {
  CHECK(recv[0] == 1000 * left + 1 && recv[1] == 1000 * right, "%s neighbour exchange: %d %d", what, recv[0], recv[1]);
}
static void fill_one(void) {
  send[0] = 7 * rank + 3;
  clear();
}
static void check_gathered(const char* what) {
  CHECK(recv[0] == 7 * left + 3 && recv[1] == 7 * right + 3, "%s neighbour allgather: %d %d", what, recv[0], recv[1]);
}
static void fill_all(void) {
  for (int d = 0; d < size; d++) send[d] = 100 * rank + d;
  clear();
}
static void check_all(const char* what) {
  for (int s = 0; s < size; s++) CHECK(recv[s] == 100 * s + rank, "%s alltoallw from %d: %d", what, s, recv[s]);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 64) MPI_Abort(MPI_COMM_WORLD, 2);
  MPI_Comm ring;
  const int dims[1] = {size}, periods[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  MPI_Cart_shift(ring, 0, 1, &left, &right);
  int ones[64], offsets[64], byte_offsets[64];
  MPI_Aint address_offsets[64];
  MPI_Datatype ints[64];
  for (int i = 0; i < 64; i++) {
    ones[i] = 1;
    offsets[i] = i;
    byte_offsets[i] = i * (int)sizeof(int);
    address_offsets[i] = (MPI_Aint)(i * sizeof(int));
    ints[i] = MPI_INT;
  }
  /* One collective in one form: its call, completion (twice started where persistent), check. */
#define FORMS(FILL, CHECKED, BLOCKING_NAME, NONBLOCKING_NAME, PERSISTENT_NAME, ...)      \
  do {                                                                              \
    MPI_Request request = MPI_REQUEST_NULL;                                         \
    FILL();                                                                         \
    if (form == BLOCKING) BLOCKING_NAME(__VA_ARGS__);                               \
    else if (form == NONBLOCKING) NONBLOCKING_NAME(__VA_ARGS__, &request);          \
    else PERSISTENT_NAME(__VA_ARGS__, MPI_INFO_NULL, &request);                     \
    complete(form, &request, FILL, CHECKED);                                        \
    if (form != PERSISTENT) CHECKED(form_name[form]);                               \
  } while (0)
  for (int form = BLOCKING; form <= PERSISTENT; form++) {
    FORMS(fill_all, check_all, MPI_Alltoallw, MPI_Ialltoallw, PERSISTENT_ALLTOALLW_INIT, send, ones, byte_offsets, ints,
          recv, ones, byte_offsets, ints, MPI_COMM_WORLD);
    FORMS(fill_one, check_gathered, MPI_Neighbor_allgather, MPI_Ineighbor_allgather, PERSISTENT_NEIGHBOR_ALLGATHER_INIT,
          send, 1, MPI_INT, recv, 1, MPI_INT, ring);
    FORMS(fill_one, check_gathered, MPI_Neighbor_allgatherv, MPI_Ineighbor_allgatherv,
          PERSISTENT_NEIGHBOR_ALLGATHERV_INIT, send, 1, MPI_INT, recv, ones, offsets, MPI_INT, ring);
    FORMS(fill_pair, check_pair, MPI_Neighbor_alltoall, MPI_Ineighbor_alltoall, PERSISTENT_NEIGHBOR_ALLTOALL_INIT, send,
          1, MPI_INT, recv, 1, MPI_INT, ring);
    FORMS(fill_pair, check_pair, MPI_Neighbor_alltoallv, MPI_Ineighbor_alltoallv, PERSISTENT_NEIGHBOR_ALLTOALLV_INIT,
          send, ones, offsets, MPI_INT, recv, ones, offsets, MPI_INT, ring);
    FORMS(fill_pair, check_pair, MPI_Neighbor_alltoallw, MPI_Ineighbor_alltoallw, PERSISTENT_NEIGHBOR_ALLTOALLW_INIT,
          send, ones, address_offsets, ints, recv, ones, address_offsets, ints, ring);
  }
  MPI_Comm_free(&ring);
  return check_finish("test_forwarded");
}
