/* Learning in the run (entry/learning.hpp): a size class's first blocking calls take the row's
 * path, then each other candidate, seven calls each, and from then on every rank takes the path
 * the ranks agreed on, in every form. The test's settings slow one path down on purpose
 * (MCORECOLL_TEST_SLOWDOWN), or both alike; this program makes the calls, checks every result,
 * and prints the statistics the run must then show ("expect stats ...", mpirun_check.py's
 * --expect-printed-stats): the row's path on the class's calls 0-6, the next candidate on 7-13
 * (and a third on 14-20), the expected winner from then on and in the non-blocking and
 * persistent calls made after it, summed over the ranks (a rank on another path would show).
 *
 * Usage: test_learning COLLECTIVE CANDIDATES WINNER [CALLS [remembered]]
 *   COLLECTIVE: allreduce (256 B of doubles), bcast (256 B, the root moving), allgather (a block
 *   of 256 B a rank), allgatherv, gatherv or scatterv (blocks of 2 and 4 doubles by rank: the
 *   class of 32 B; the root moving), alltoallv (2 or 4 doubles from p to q by p + q) or barrier; TEST_LEARNING_DOUBLES in the environment: other than 32 doubles (allreduce, bcast,
 *   allgather)
 *   CANDIDATES: the path the settings' row gives that size (shm or pmpi), the other of the two
 *   after it; or every candidate in the order explored, comma-separated (shm,pmpi,cma). A
 *   candidate the statistics name otherwise is written NAME=COUNTED: allreduce's shm inside a
 *   node is the node's choice, counted as the algorithm it takes (shm=fold, shm=poll).
 *   WINNER: the path expected once learned. The same on a duplicate of the world, learned apart.
 *   remembered: an earlier job's learned file has the class (decisions/learned_file.hpp), so
 *   every call takes WINNER from the first.
 * TEST_OTHER_LEARN_DIR in the environment: the ranks but the world's first take it as their
 * MCORECOLL_LEARN_DIR (they must not read it: rank 0 reads the file and hands it on).
 * TEST_LEARNING_FORM=nonblocking in the environment: the CALLS calls are non-blocking (each
 * waited for before the next), as a library's communicator used only with them: inside one node
 * the ranks agree without waiting, through the node's shared memory, on a switch call after the
 * exploration (entry/learning.cpp). Allreduce only: each call ends only once every rank started
 * it, so every rank has judged by its call 7n+1 and the switch falls on 7n+1 or 7n+2; the row's
 * path takes one or two calls more than the schedule, and the statistics are checked within
 * that bound.
 * TEST_LEARNING_MEETING=allreduce|barrier with TEST_LEARNING_FORM=nonblocking, across nodes
 * (pretend ones): the ranks cannot agree without waiting there, so the class keeps the row's path
 * after its exploration until the communicator's next blocking call that decides, where they
 * agree (a meeting, entry/learning.cpp): after the CALLS non-blocking calls one blocking
 * MPI_Allreduce of a double (another size class) or MPI_Barrier, then the winner in every call
 * after it; the statistics exact.
 * TEST_LEARNING_THREAD=multiple: MPI_Init_thread with MPI_THREAD_MULTIPLE (under MPICH the
 * non-blocking calls across nodes are mcorecoll's only there).
 * TEST_LEARNING_FORM=persistent: the same with every call a start of one persistent request
 * (two at the world's calls 6 and 7), made before the communicator's first call: while its class
 * explores, each start is a call of the class (entry/reissued_operation.hpp). Where the row's
 * path is mcorecoll's, the duplicate's is started once more after MPI_Comm_free, when it takes
 * that path, on every rank (the MPI library's own requests may not outlive their communicator:
 * Open MPI 4.1's crash when started then).
 * TEST_OPERATIONS_PATH=pmpi in the environment: the non-blocking and persistent forms take the
 * MPI library's path whatever was learned (across nodes under MPICH without
 * MPI_THREAD_MULTIPLE: an operation's leaders' part needs MPI calls the application may not
 * make). MPI_Igatherv, MPI_Iscatterv and MPI_Ialltoallv are the MPI library's always (no rank
 * knows every size when it calls); their persistent forms take what was learned, at their
 * initialization. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "switch_call.h"
#include "persistent.h"

enum { kRounds = 7 }; /* decisions/learning.hpp's kLearnRounds: calls a candidate */
enum { kPaths = 11 };

static int rank, size, count = 32; /* doubles: 256 bytes */
static const char* collective;
/* Every path name the runs use (an index of this program's own, not the library's path number). */
static const char* path_names[kPaths] = {"pmpi", "shm",  "cma",  "lanes",  "lines", "tree",
                                         "fold", "slices", "poll", "groups", "staged"};
static int blocking_calls[kPaths]; /* by path_names: this rank's */
/* TEST_LEARNING_FORM=persistent: each communicator's two requests and their buffers. */
static MPI_Request started[2][2];
static double started_in[2][2][64], started_out[2][2][64];

/* Path 1 is named by its collective: bcast's ring, alltoall's staged exchange ("shm" too). */
static const char* named(int p) {
  if (p == 1 && strcmp(collective, "bcast") == 0) return "ring";
  if (p == 1 && strcmp(collective, "alltoall") == 0) return "staged";
  return path_names[p];
}

/* "shm=fold": the path learning names shm, counted as the algorithm it takes at this size. */
static int path_index(const char* path) {
  if (strchr(path, '=')) path = strchr(path, '=') + 1;
  for (int p = 0; p < kPaths; p++)
    if (strcmp(path, path_names[p]) == 0 || strcmp(path, named(p)) == 0) return p;
  fprintf(stderr, "test_learning: no path '%s'\n", path);
  MPI_Abort(MPI_COMM_WORLD, 2);
  return 0;
}

/* One call of the collective, in `form` (0 blocking, 1 non-blocking, 2 persistent: a fresh
 * request started twice), checked. */
static int run(MPI_Comm comm, int form, int salt) {
  int me, n, starts = 0;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  double* in = malloc(sizeof(double) * (size_t)count);
  double* out = malloc(sizeof(double) * (size_t)count * (size_t)n);
  const int root = salt % n, is_bcast = strcmp(collective, "bcast") == 0;
  const int is_allgatherv = strcmp(collective, "allgatherv") == 0, is_allgather = strcmp(collective, "allgather") == 0;
  const int is_barrier = strcmp(collective, "barrier") == 0;
  const int is_gatherv = strcmp(collective, "gatherv") == 0, is_scatterv = strcmp(collective, "scatterv") == 0;
  const int is_alltoallv = strcmp(collective, "alltoallv") == 0;
  int counts[8], displs[8], total = 0;
  for (int r = 0; r < n && r < 8; r++) counts[r] = (r % 2 + 1) * 2, displs[r] = total, total += counts[r];
  CHECK(!(is_allgatherv || is_gatherv || is_scatterv || is_alltoallv) || n <= 8, "%s: at most %d ranks", collective, 8);
  /* Alltoallv: 2 or 4 doubles from p to q by the parity of p + q (each side knows both). */
  int pair[8], pair_displs[8], at = 0;
  for (int q = 0; q < n && q < 8; q++) pair[q] = ((me + q) % 2 + 1) * 2, pair_displs[q] = at, at += pair[q];
  for (int i = 0; i < count; i++) in[i] = me + i + salt, out[i] = -1;
  MPI_Request r = MPI_REQUEST_NULL;
  for (int round = 0; round < (form == 2 ? 2 : 1); round++) {
    if (is_bcast) {
      double* buf = me == root ? in : out;
      if (form == 0) MPI_Bcast(buf, count, MPI_DOUBLE, root, comm);
      else if (form == 1) MPI_Ibcast(buf, count, MPI_DOUBLE, root, comm, &r);
      else if (round == 0) PERSISTENT_BCAST_INIT(buf, count, MPI_DOUBLE, root, comm, MPI_INFO_NULL, &r);
    } else if (is_barrier) {
      if (form == 0) MPI_Barrier(comm);
      else if (form == 1) MPI_Ibarrier(comm, &r);
      else if (round == 0) PERSISTENT_BARRIER_INIT(comm, MPI_INFO_NULL, &r);
    } else if (is_allgather) {
      if (form == 0) MPI_Allgather(in, count, MPI_DOUBLE, out, count, MPI_DOUBLE, comm);
      else if (form == 1) MPI_Iallgather(in, count, MPI_DOUBLE, out, count, MPI_DOUBLE, comm, &r);
      else if (round == 0) PERSISTENT_ALLGATHER_INIT(in, count, MPI_DOUBLE, out, count, MPI_DOUBLE, comm, MPI_INFO_NULL, &r);
    } else if (is_allgatherv) {
      const int own = counts[me];
      if (form == 0) MPI_Allgatherv(in, own, MPI_DOUBLE, out, counts, displs, MPI_DOUBLE, comm);
      else if (form == 1) MPI_Iallgatherv(in, own, MPI_DOUBLE, out, counts, displs, MPI_DOUBLE, comm, &r);
      else if (round == 0) PERSISTENT_ALLGATHERV_INIT(in, own, MPI_DOUBLE, out, counts, displs, MPI_DOUBLE, comm, MPI_INFO_NULL, &r);
    } else if (is_alltoallv) {
      if (form == 0) MPI_Alltoallv(in, pair, pair_displs, MPI_DOUBLE, out, pair, pair_displs, MPI_DOUBLE, comm);
      else if (form == 1) MPI_Ialltoallv(in, pair, pair_displs, MPI_DOUBLE, out, pair, pair_displs, MPI_DOUBLE, comm, &r);
      else if (round == 0)
        PERSISTENT_ALLTOALLV_INIT(in, pair, pair_displs, MPI_DOUBLE, out, pair, pair_displs, MPI_DOUBLE, comm,
                                  MPI_INFO_NULL, &r);
    } else if (is_gatherv) {
      const int own = counts[me];
      if (form == 0) MPI_Gatherv(in, own, MPI_DOUBLE, out, counts, displs, MPI_DOUBLE, root, comm);
      else if (form == 1) MPI_Igatherv(in, own, MPI_DOUBLE, out, counts, displs, MPI_DOUBLE, root, comm, &r);
      else if (round == 0)
        PERSISTENT_GATHERV_INIT(in, own, MPI_DOUBLE, out, counts, displs, MPI_DOUBLE, root, comm, MPI_INFO_NULL, &r);
    } else if (is_scatterv) {
      const int own = counts[me];
      if (form == 0) MPI_Scatterv(in, counts, displs, MPI_DOUBLE, out, own, MPI_DOUBLE, root, comm);
      else if (form == 1) MPI_Iscatterv(in, counts, displs, MPI_DOUBLE, out, own, MPI_DOUBLE, root, comm, &r);
      else if (round == 0)
        PERSISTENT_SCATTERV_INIT(in, counts, displs, MPI_DOUBLE, out, own, MPI_DOUBLE, root, comm, MPI_INFO_NULL, &r);
    } else {
      if (form == 0) MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, comm);
      else if (form == 1) MPI_Iallreduce(in, out, count, MPI_DOUBLE, MPI_SUM, comm, &r);
      else if (round == 0) PERSISTENT_ALLREDUCE_INIT(in, out, count, MPI_DOUBLE, MPI_SUM, comm, MPI_INFO_NULL, &r);
    }
    if (form == 2) MPI_Start(&r), starts++;
    if (form != 0) MPI_Wait(&r, MPI_STATUS_IGNORE);
    int bad = 0;
    if (is_barrier) {
      /* nothing moves; test_barrier_order checks that a barrier orders */
    } else if (is_allgather) {
      for (int q = 0; q < n; q++)
        for (int i = 0; i < count; i++) bad |= out[q * count + i] != q + i + salt;
    } else if (is_allgatherv || (is_gatherv && me == root)) {
      for (int q = 0; q < n; q++)
        for (int i = 0; i < counts[q]; i++) bad |= out[displs[q] + i] != q + i + salt;
    } else if (is_gatherv) {
      /* nothing arrives but at the root */
    } else if (is_alltoallv) {
      for (int q = 0; q < n; q++) {
        int from = 0; /* where q's block for this rank starts in q's buffer */
        for (int k = 0; k < me; k++) from += ((q + k) % 2 + 1) * 2;
        for (int i = 0; i < pair[q]; i++) bad |= out[pair_displs[q] + i] != q + from + i + salt;
      }
    } else if (is_scatterv) {
      for (int i = 0; i < counts[me]; i++) bad |= out[i] != root + displs[me] + i + salt;
    } else {
      for (int i = 0; i < count; i++) {
        const double want = is_bcast ? (me == root ? -1 : root + i + salt) : n * (n - 1) / 2.0 + n * (double)(i + salt);
        bad |= out[i] != want;
      }
    }
    CHECK(!bad, "%s form %d call %d: wrong data", collective, form, salt);
  }
  if (form == 2) MPI_Request_free(&r);
  free(in);
  free(out);
  return form == 2 ? starts : 1;
}

/* Persistent mode: a start of communicator c's first request (rank and size: the world's, or
 * its duplicate's), then its wait, checked. */
static void start_first(int c, int salt) {
  for (int i = 0; i < count; i++) started_in[c][0][i] = rank + i + salt, started_out[c][0][i] = -1;
  MPI_Start(&started[c][0]);
}

static void wait_first(int c, int salt) {
  MPI_Wait(&started[c][0], MPI_STATUS_IGNORE);
  int bad = 0;
  for (int i = 0; i < count; i++) bad |= started_out[c][0][i] != size * (size - 1) / 2.0 + size * (double)(i + salt);
  CHECK(!bad, "start %d of a persistent request: wrong data", salt);
}

static void run_started(int c, int salt) {
  start_first(c, salt);
  wait_first(c, salt);
}

/* Non-blocking mode, calls `salt` and `salt + 1` of the class at once on `comm` (allreduce): the
 * world's calls 6 and 7, where the row's path ends its run and the next candidate's begins. Rank
 * 0 then blocks in MPI_Recv from rank 1, which first waits for the second call and only then
 * sends: rank 0's part of the second must progress while it is blocked in a call mcorecoll does
 * not take, behind the first (on the MPI library's path, timed by an operation whose steps call
 * MPI, which the progress helper may not make below MPI_THREAD_MULTIPLE). */
static void run_pair_blocked(MPI_Comm comm, int persistent, int salt) {
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  double (*in)[64] = started_in[0], (*out)[64] = started_out[0];
  MPI_Request r[2];
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < count && i < 64; i++) in[k][i] = me + i + salt + k, out[k][i] = -1;
    if (persistent) MPI_Start(&started[0][k]), r[k] = started[0][k];
    else MPI_Iallreduce(in[k], out[k], count, MPI_DOUBLE, MPI_SUM, comm, &r[k]);
  }
  int token = 0;
  MPI_Status statuses[2]; /* not MPI_STATUSES_IGNORE: MPICH's (MPI_Status *)1 warns under GCC 12 */
  if (me == 0 && n > 1) {
    MPI_Recv(&token, 1, MPI_INT, 1, 7, comm, MPI_STATUS_IGNORE);
    MPI_Waitall(2, r, statuses);
  } else if (me == 1) {
    MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    MPI_Send(&token, 1, MPI_INT, 0, 7, comm);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  } else {
    MPI_Waitall(2, r, statuses);
  }
  int bad = 0;
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < count; i++) bad |= out[k][i] != n * (n - 1) / 2.0 + n * (double)(i + salt + k);
  CHECK(!bad, "calls %d and %d at once, rank 0 blocked in MPI_Recv: wrong data", salt, salt + 1);
}

int main(int argc, char** argv) {
  const char* other_dir = getenv("TEST_OTHER_LEARN_DIR");
  const char* launcher_rank = getenv("OMPI_COMM_WORLD_RANK") ? getenv("OMPI_COMM_WORLD_RANK") : getenv("PMI_RANK");
  if (other_dir && launcher_rank && atoi(launcher_rank) != 0) setenv("MCORECOLL_LEARN_DIR", other_dir, 1);
  const char* thread = getenv("TEST_LEARNING_THREAD");
  int provided = MPI_THREAD_SINGLE;
  if (thread && strcmp(thread, "multiple") == 0) MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  else MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  CHECK(!thread || provided == MPI_THREAD_MULTIPLE, "TEST_LEARNING_THREAD=multiple: provided %d", provided);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 4) {
    if (rank == 0)
      fprintf(stderr, "usage: test_learning allreduce|bcast|allgather|allgatherv|barrier CANDIDATES WINNER [CALLS]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  collective = argv[1];
  if (getenv("TEST_LEARNING_DOUBLES")) count = atoi(getenv("TEST_LEARNING_DOUBLES"));
  const int rooted_v = strcmp(collective, "gatherv") == 0 || strcmp(collective, "scatterv") == 0 ||
                       strcmp(collective, "alltoallv") == 0; /* v-forms: non-blocking on PMPI */
  CHECK(count >= 32 || (strcmp(collective, "allgatherv") != 0 && !rooted_v), "%s: 32 doubles", collective);
  int candidates[3], n_candidates = 0;
  char list[64];
  snprintf(list, sizeof list, "%s", argv[2]);
  for (char* name = strtok(list, ","); name && n_candidates < 3; name = strtok(NULL, ","))
    candidates[n_candidates++] = path_index(name);
  if (n_candidates == 1) candidates[n_candidates++] = candidates[0] == 0; /* pmpi beside shm, shm beside pmpi */
  const int winner = path_index(argv[3]);
  const int calls = argc > 4 ? atoi(argv[4]) : 40;
  const int explored = argc > 5 && strcmp(argv[5], "remembered") == 0 ? 0 : kRounds * n_candidates;
  const char* form = getenv("TEST_LEARNING_FORM") ? getenv("TEST_LEARNING_FORM") : "blocking";
  const int persistent = strcmp(form, "persistent") == 0, nonblocking = persistent || strcmp(form, "nonblocking") == 0;
  const int meeting = getenv("TEST_LEARNING_MEETING") != NULL;
  CHECK(!meeting || strcmp(form, "nonblocking") == 0, "TEST_LEARNING_MEETING: with TEST_LEARNING_FORM=nonblocking");
  CHECK(!nonblocking || strcmp(collective, "allreduce") == 0, "TEST_LEARNING_FORM=%s: allreduce only", form);
  CHECK(!nonblocking || count <= 64, "TEST_LEARNING_FORM=%s: at most 64 doubles", form);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm comms[2] = {MPI_COMM_WORLD, dup};
  for (int c = 0; c < 2; c++) {
    if (persistent)
      for (int k = 0; k < 2; k++)
        PERSISTENT_ALLREDUCE_INIT(started_in[c][k], started_out[c][k], count, MPI_DOUBLE, MPI_SUM, comms[c],
                                  MPI_INFO_NULL, &started[c][k]);
    for (int i = 0; i < calls; i++) {
      if (nonblocking && c == 0 && i == kRounds - 1) run_pair_blocked(comms[c], persistent, i++);
      else if (persistent) run_started(c, i);
      else run(comms[c], nonblocking, i);
    }
    /* A communicator used only with non-blocking calls and not set up at its making (the
     * duplicate inside one node) gives the MPI library its calls until its ranks agree on the
     * switch (node/setup_window.hpp); the schedule starts there. */
    const long at = nonblocking ? switch_call(comms[c]) : 0, first = at > 0 ? at - 1 : 0; /* calls count from 1 */
    CHECK(first + explored + 2 <= calls, "the schedule and its switch fit in the %d calls", calls);
    for (int i = 0; i < calls; i++) {
      /* The schedule: each candidate for seven calls, the row's first, then the winner (the
       * row's until the meeting). */
      const long j = i - first;
      blocking_calls[j < 0 ? 0 : j >= explored ? (meeting ? candidates[0] : winner) : candidates[j / kRounds]]++;
    }
    if (meeting && strcmp(getenv("TEST_LEARNING_MEETING"), "barrier") == 0) {
      MPI_Barrier(comms[c]);
    } else if (meeting) {
      double one = rank + 1, sum = 0;
      MPI_Allreduce(&one, &sum, 1, MPI_DOUBLE, MPI_SUM, comms[c]);
      CHECK(sum == size * (size + 1) / 2.0, "the meeting's allreduce: %g", sum);
    }
    for (int i = 0; i < 4; i++) run(comms[c], 1 + i % 2, calls + i);
  }
  /* Persistent mode: the duplicate's first request started, its communicator freed while it runs,
   * then waited for (on the learned path); and, where the row's path is mcorecoll's, started
   * after MPI_Comm_free, on that path. */
  if (persistent) start_first(1, calls);
  MPI_Comm_free(&dup);
  if (persistent) {
    wait_first(1, calls);
    if (candidates[0] != 0) run_started(1, calls + 1);
    for (int c = 0; c < 2; c++)
      for (int k = 0; k < 2; k++) MPI_Request_free(&started[c][k]);
  }
  int all[kPaths];
  PMPI_Reduce(blocking_calls, all, kPaths, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    const char* path[kPaths];
    for (int p = 0; p < kPaths; p++) path[p] = named(p);
    const char* operations = getenv("TEST_OPERATIONS_PATH");
    const int taken = operations ? path_index(operations) : winner;
    const int tail_init = (taken ? 2 : 1) * 2 * 2 * size;
    char name[64]; /* the statistics' name of the calls that followed the schedule */
    snprintf(name, sizeof name, persistent ? "%s_init" : nonblocking ? "i%s" : "%s", collective);
    if (nonblocking) {
      /* Every call non-blocking, or a start: the schedule's counts, with one or two calls a
       * communicator moved from the winner to the row's (the agreed switch). The 2 non-blocking
       * calls a communicator after them on the winner; in persistent mode also the fresh
       * requests after them (below) and the duplicate's start across its MPI_Comm_free, and
       * its start after it on the row's path. */
      const int row = candidates[0], slack = explored && winner != row && !meeting ? 2 * 2 * size : 0;
      if (persistent) {
        all[winner] += tail_init + size;
        if (row != 0) all[row] += size;
        printf("expect stats i%s %s calls=%d\n", collective, path[winner], 2 * 2 * size);
      } else {
        all[winner] += 2 * 2 * size;
      }
      for (int p = 0; p < kPaths; p++) {
        if (!all[p]) continue;
        if (slack && p == row)
          printf("expect stats %s %s calls=%d-%d\n", name, path[p], all[p] + slack / 2, all[p] + slack);
        else if (slack && p == winner)
          printf("expect stats %s %s calls=%d-%d\n", name, path[p], all[p] - slack, all[p] - slack / 2);
        else
          printf("expect stats %s %s calls=%d\n", name, path[p], all[p]);
      }
    } else {
      for (int p = 0; p < kPaths; p++)
        if (all[p]) printf("expect stats %s %s calls=%d\n", collective, path[p], all[p]);
      printf("expect stats i%s %s calls=%d\n", collective, path[rooted_v ? 0 : taken], 2 * 2 * size);
    }
    /* The other forms, counted apart: 2 non-blocking calls a communicator, and 2 persistent
     * requests started twice each (counted at each start on mcorecoll's path; the MPI library's
     * own requests once, at their initialization). */
    if (!persistent) printf("expect stats %s_init %s calls=%d\n", collective, path[taken], tail_init);
    fflush(stdout);
  }
  return check_finish("test_learning");
}
