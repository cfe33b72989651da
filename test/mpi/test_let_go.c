/* Ranks whose part of a rooted collective is done return without waiting for the others, as
 * the MPI library's eager sends let them (issue #39, item 2): a gather's or a reduce's
 * non-roots before their root has come to the call, a scatter's root before its leaves have.
 * Each case makes the waiting side wait for a token that the other side sends only after its
 * own calls have returned: where a call held its rank until the other side came, no token
 * arrives. The waiting side then says so after a deadline and makes its calls anyway, so that
 * the job ends with the verdict rather than hanging; the results are checked in order.
 *
 * The cases are what mcorecoll promises: blocks that fit the ranks' lines, up to three calls
 * ahead (the lines' depth less one: node/record_lines.hpp), and staged gathers and scatters of
 * 4 KiB blocks one call ahead (a tile in this rank's half of its areas). Open MPI 4.1's own
 * let only the first go (eager sends); its 4 KiB ones hold their ranks (MCORECOLL_GATHER=pmpi
 * makes that case fail). Not promised: staged reduces (every rank folds a part), and staged
 * calls two ahead (the second waits for the first's half to be read).
 * Usage: test_let_go */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

#define MAX_AHEAD 3
#define DEADLINE_SECONDS 10.0

static int rank, size;

/* Waits for one token from each of `from` (count n) on `comm`; 1 if all came in time. */
static int tokens_came(const int* from, int n, MPI_Comm comm, int tag) {
  MPI_Request* requests = malloc((size_t)n * sizeof *requests);
  int* tokens = malloc((size_t)n * sizeof *tokens);
  MPI_Status* statuses = malloc((size_t)n * sizeof *statuses);
  for (int i = 0; i < n; i++) MPI_Irecv(&tokens[i], 1, MPI_INT, from[i], tag, comm, &requests[i]);
  const double end = MPI_Wtime() + DEADLINE_SECONDS;
  int done = 0;
  while (!done && MPI_Wtime() < end) {
    MPI_Testall(n, requests, &done, statuses);
    if (!done) usleep(1000);
  }
  if (!done) {
    for (int i = 0; i < n; i++) {
      MPI_Cancel(&requests[i]);
      MPI_Wait(&requests[i], MPI_STATUS_IGNORE);
    }
  }
  free(requests);
  free(tokens);
  free(statuses);
  return done;
}

static int value(int call, int r, int i) { return 1000 * call + 10 * r + i % 7; }

/* Non-roots gather (or reduce) `ahead` times, then tell the root; the root waits for that
 * before its own calls. */
static void rooted_in(MPI_Comm comm, MPI_Comm tokens, int reduce, int count, int ahead, int tag) {
  const int root = size - 1;
  int* send[MAX_AHEAD];
  int* recv[MAX_AHEAD];
  for (int c = 0; c < ahead; c++) {
    send[c] = malloc((size_t)count * sizeof(int));
    recv[c] = malloc((size_t)count * (size_t)size * sizeof(int));
    for (int i = 0; i < count; i++) send[c][i] = value(c, rank, i);
  }
  if (rank != root) {
    for (int c = 0; c < ahead; c++) {
      if (reduce) MPI_Reduce(send[c], NULL, count, MPI_INT, MPI_SUM, root, comm);
      else MPI_Gather(send[c], count, MPI_INT, NULL, 0, MPI_INT, root, comm);
    }
    const int token = 1;
    MPI_Send(&token, 1, MPI_INT, root, tag, tokens);
  } else {
    int* from = malloc((size_t)size * sizeof(int));
    for (int r = 0; r < size - 1; r++) from[r] = r;
    const int came = tokens_came(from, size - 1, tokens, tag);
    CHECK(came, "%s of %d ints, %d calls: the non-roots were held until the root came", reduce ? "MPI_Reduce" : "MPI_Gather",
          count, ahead);
    free(from);
    for (int c = 0; c < ahead; c++) {
      if (reduce) MPI_Reduce(send[c], recv[c], count, MPI_INT, MPI_SUM, root, comm);
      else MPI_Gather(send[c], count, MPI_INT, recv[c], count, MPI_INT, root, comm);
      for (int i = 0; i < count; i++) {
        if (reduce) {
          long want = 0;
          for (int r = 0; r < size; r++) want += value(c, r, i);
          CHECK(recv[c][i] == want, "reduce call %d element %d: %d, not %ld", c, i, recv[c][i], want);
        } else {
          for (int r = 0; r < size; r++)
            CHECK(recv[c][r * count + i] == value(c, r, i), "gather call %d rank %d element %d: %d", c, r, i,
                  recv[c][r * count + i]);
        }
      }
    }
  }
  for (int c = 0; c < ahead; c++) {
    free(send[c]);
    free(recv[c]);
  }
}

/* The root scatters `ahead` times, then tells the leaves; they wait for that before theirs. */
static void scatter_out(MPI_Comm comm, MPI_Comm tokens, int count, int ahead, int tag) {
  const int root = 0;
  int* send = malloc((size_t)count * (size_t)size * MAX_AHEAD * sizeof(int));
  int* recv = malloc((size_t)count * sizeof(int));
  if (rank == root) {
    for (int c = 0; c < ahead; c++) {
      int* block = send + (size_t)c * (size_t)count * (size_t)size;
      for (int r = 0; r < size; r++)
        for (int i = 0; i < count; i++) block[r * count + i] = value(c, r, i);
      MPI_Scatter(block, count, MPI_INT, recv, count, MPI_INT, root, comm);
    }
    const int token = 1;
    for (int r = 1; r < size; r++) MPI_Send(&token, 1, MPI_INT, r, tag, tokens);
  } else {
    const int from = root;
    const int came = tokens_came(&from, 1, tokens, tag);
    CHECK(came, "MPI_Scatter of %d ints, %d calls: the root was held until its leaves came", count, ahead);
    for (int c = 0; c < ahead; c++) {
      MPI_Scatter(NULL, 0, MPI_INT, recv, count, MPI_INT, root, comm);
      for (int i = 0; i < count; i++)
        CHECK(recv[i] == value(c, rank, i), "scatter call %d element %d: %d", c, i, recv[i]);
    }
  }
  free(send);
  free(recv);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  /* The communicator's set-up (at its first collective with MCORECOLL_SETUP_AFTER=1) is a
   * collective that waits for every rank: done here, before the cases. */
  MPI_Barrier(comm);
  int tag = 0;
  const int small[] = {1, 2};  /* ints: through the ranks' lines */
  for (size_t k = 0; k < sizeof small / sizeof small[0]; k++) {
    rooted_in(comm, MPI_COMM_WORLD, 0, small[k], MAX_AHEAD, ++tag);
    rooted_in(comm, MPI_COMM_WORLD, 1, small[k], MAX_AHEAD, ++tag);
    scatter_out(comm, MPI_COMM_WORLD, small[k], MAX_AHEAD, ++tag);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  rooted_in(comm, MPI_COMM_WORLD, 0, 1024, 1, ++tag);  /* 4 KiB blocks: staged */
  scatter_out(comm, MPI_COMM_WORLD, 1024, 1, ++tag);
  MPI_Comm_free(&comm);
  return check_finish("test_let_go");
}
