/* The progress promise: rank 0 starts a non-blocking (or persistent) collective, then blocks in
 * an ordinary MPI call until the others tell it they are done; each other rank first completes
 * the collective, then tells rank 0. A legal program, which completes natively with both MPIs:
 * mcorecoll must not turn it into a hang, whatever call rank 0 blocks in (intercepted by
 * mcorecoll or not) and at every thread level.
 *
 * Usage: test_progress OP BYTES BLOCKING [single|funneled|serialized|multiple] [persistent]
 *        test_progress all [single|funneled|serialized|multiple] [fresh]
 *   fresh: each case on a duplicate or a split of MPI_COMM_WORLD of its own (in turn), in six rounds instead of
 *   three: with MCORECOLL_SETUP_AFTER=2 its non-blocking rounds go before its set-up, open the
 *   set-up without waiting, pass the window and take mcorecoll's paths after the switch
 *   OP: ibarrier, ibcast, ialltoall, iallreduce (MPI_SUM of doubles), iallgather, igather and
 *   iscatter (root 0), iallgatherv (displacements in reversed order), iscan and
 *   ireduce_scatter_block (MPI_SUM of doubles), ialltoallv, igatherv and iscatterv (root 0;
 *   their persistent forms are mcorecoll's, the non-blocking ones the MPI library's); BYTES: the message (bcast, allreduce), the
 *   vector (scan, reduce_scatter_block) or a rank's block (the others)
 *   all: every OP (bcast 4 MiB, alltoall 64 KiB blocks, ...) with every BLOCKING call, started
 *   by the non-blocking call and by a persistent request, one case after the other
 *   BLOCKING, what rank 0 blocks in while the others wait for the collective:
 *     recv       MPI_Recv from every other rank (they MPI_Send once done)
 *     allreduce  MPI_Allreduce on a duplicate of the communicator (they join once done)
 *     iprobe     an MPI_Iprobe loop until every other rank's message is there
 *     ssend      MPI_Ssend to every other rank (they MPI_Recv once done)
 *     comm_dup   MPI_Comm_dup (they duplicate once done)
 *     barrier    MPI_Barrier on a duplicate (intercepted; they join once done)
 * The data is checked; a hang ends the run by alarm with "test_progress: HUNG". */
#define _GNU_SOURCE
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "mpi_defects.h"
#include "persistent.h"

static int rank, size;
static int g_fresh = 0; /* each case on a communicator of its own */

static char g_case[128] = "";

static void on_alarm(int sig) {
  (void)sig;
  char msg[256];
  const int n = snprintf(msg, sizeof(msg), "test_progress: HUNG in %s on rank %d\n", g_case, rank);
  ssize_t w = write(2, msg, n > 0 ? (size_t)n : 0);
  (void)w;
  _exit(3);
}

static unsigned char pattern(int src, int dst, size_t i) { return (unsigned char)(src * 37 + dst * 11 + i * 7 + 1); }

/* Rank 0 blocks in `how` until every other rank has signalled; the others signal. */
static void block_or_signal(const char* how, MPI_Comm aside) {
  const int tag = 77;
  char token = 1;
  if (!strcmp(how, "recv")) {
    if (rank == 0)
      for (int r = 1; r < size; r++) MPI_Recv(&token, 1, MPI_CHAR, r, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
      MPI_Send(&token, 1, MPI_CHAR, 0, tag, MPI_COMM_WORLD);
  } else if (!strcmp(how, "allreduce")) {
    int one = 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, aside);
    CHECK(sum == size, "allreduce gave %d", sum);
  } else if (!strcmp(how, "iprobe")) {
    if (rank == 0) {
      for (int got = 0; got < size - 1;) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, &st);
        if (flag) {
          MPI_Recv(&token, 1, MPI_CHAR, st.MPI_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          got++;
        }
      }
    } else {
      MPI_Send(&token, 1, MPI_CHAR, 0, tag, MPI_COMM_WORLD);
    }
  } else if (!strcmp(how, "ssend")) {
    if (rank == 0)
      for (int r = 1; r < size; r++) MPI_Ssend(&token, 1, MPI_CHAR, r, tag, MPI_COMM_WORLD);
    else
      MPI_Recv(&token, 1, MPI_CHAR, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (!strcmp(how, "comm_dup")) {
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_free(&dup);
  } else if (!strcmp(how, "barrier")) {
    MPI_Barrier(aside);
  } else {
    if (rank == 0) fprintf(stderr, "test_progress: unknown blocking call '%s'\n", how);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
}

#if defined(MPICH_VERSION)
/* Under MPICH, mcorecoll hands persistent operations across nodes to the library unless the
 * thread level is MPI_THREAD_MULTIPLE (doc/limits.md). */
static int g_persistent_to_library;
#endif

static void run_case(const char* op, size_t bytes, const char* how, int persistent, MPI_Comm aside) {
#if defined(MPICH_VERSION)
  /* MPICH 4.0.2's own MPI_Allgather_init delivers the other ranks' blocks at the first start
   * only, and its MPI_Gather_init and MPI_Scatter_init deliver wrong blocks (doc/mpi-defects.md):
   * where mcorecoll hands them to MPICH (their path not forced, or across nodes below
   * MPI_THREAD_MULTIPLE, where MPICH has no progress hook for mcorecoll's operations), the
   * cases are not run. */
  static const struct {
    const char *op, *setting;
    int defective;
  } cases[] = {{"iallgather", "MCORECOLL_ALLGATHER", DEFECT_ALLGATHER_INIT},  /* right in 4.2.1 */
               {"igather", "MCORECOLL_GATHER", 1},
               {"iscatter", "MCORECOLL_SCATTER", 1}};
  for (int i = 0; i < 3; i++) {
    const char* forced = getenv(cases[i].setting);
    const int served = forced && !strcmp(forced, "shm") && !g_persistent_to_library;
    if (cases[i].defective && persistent && !strcmp(op, cases[i].op) && !served) return;
  }
#endif
  snprintf(g_case, sizeof(g_case), "%s of %zu bytes, %s, rank 0 in %s", op, bytes,
           persistent ? "persistent" : "non-blocking", how);
  alarm(60);
  const int is_bcast = !strcmp(op, "ibcast"), is_alltoall = !strcmp(op, "ialltoall");
  const int is_allreduce = !strcmp(op, "iallreduce"), is_allgather = !strcmp(op, "iallgather");
  const int is_gather = !strcmp(op, "igather"), is_scatter = !strcmp(op, "iscatter");
  const int is_allgatherv = !strcmp(op, "iallgatherv"), is_scan = !strcmp(op, "iscan");
  const int is_rsb = !strcmp(op, "ireduce_scatter_block"), is_alltoallv = !strcmp(op, "ialltoallv");
  const int is_gatherv = !strcmp(op, "igatherv"), is_scatterv = !strcmp(op, "iscatterv");
  const int per_rank = is_alltoall || is_allgather || is_gather || is_scatter || is_allgatherv || is_alltoallv ||
                       is_gatherv || is_scatterv;
  const size_t total = per_rank ? bytes * (size_t)size : bytes;
  const int doubles = (int)(bytes / sizeof(double));
  const int block = doubles / size; /* reduce_scatter_block: each rank's doubles */
  unsigned char* send = malloc(total + 1);
  unsigned char* recv = malloc(total + 1);
  int* counts = malloc(sizeof(int) * (size_t)size);
  int* displs = malloc(sizeof(int) * (size_t)size);
  int* in_order = malloc(sizeof(int) * (size_t)size);
  for (int r = 0; r < size; r++) {
    counts[r] = (int)bytes;
    displs[r] = (size - 1 - r) * (int)bytes; /* the v-forms' rooted or receive side: reversed */
    in_order[r] = r * (int)bytes;            /* alltoallv's send side */
  }
  /* Fresh: a communicator of its own, which sees only this case's collectives, so that its
   * rounds go before, into and through its set-up without waiting (node/setup_window.hpp). */
  MPI_Comm target = MPI_COMM_WORLD;
  /* Fresh: duplicates and splits in turn (across nodes a duplicate is set up at its making, and
   * so are the world's first MCORECOLL_SETUP_AT_SPLIT splits; the later ones are not). */
  static int fresh_made = 0;
  if (g_fresh && fresh_made++ % 2) MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &target);
  else if (g_fresh) MPI_Comm_dup(MPI_COMM_WORLD, &target);
  MPI_Request req = MPI_REQUEST_NULL;
  if (persistent) {  /* one request, started every round */
    if (is_bcast) PERSISTENT_BCAST_INIT(recv, (int)bytes, MPI_BYTE, 0, target, MPI_INFO_NULL, &req);
    else if (is_alltoall)
      PERSISTENT_ALLTOALL_INIT(send, (int)bytes, MPI_BYTE, recv, (int)bytes, MPI_BYTE, target, MPI_INFO_NULL, &req);
    else if (is_allreduce)
      PERSISTENT_ALLREDUCE_INIT(send, recv, doubles, MPI_DOUBLE, MPI_SUM, target, MPI_INFO_NULL, &req);
    else if (is_allgather)
      PERSISTENT_ALLGATHER_INIT(send, (int)bytes, MPI_BYTE, recv, (int)bytes, MPI_BYTE, target, MPI_INFO_NULL, &req);
    else if (is_gather)
      PERSISTENT_GATHER_INIT(send, (int)bytes, MPI_BYTE, recv, (int)bytes, MPI_BYTE, 0, target, MPI_INFO_NULL, &req);
    else if (is_scatter)
      PERSISTENT_SCATTER_INIT(send, (int)bytes, MPI_BYTE, recv, (int)bytes, MPI_BYTE, 0, target, MPI_INFO_NULL, &req);
    else if (is_allgatherv)
      PERSISTENT_ALLGATHERV_INIT(send, (int)bytes, MPI_BYTE, recv, counts, displs, MPI_BYTE, target, MPI_INFO_NULL,
                                 &req);
    else if (is_scan) PERSISTENT_SCAN_INIT(send, recv, doubles, MPI_DOUBLE, MPI_SUM, target, MPI_INFO_NULL, &req);
    else if (is_rsb)
      PERSISTENT_REDUCE_SCATTER_BLOCK_INIT(send, recv, block, MPI_DOUBLE, MPI_SUM, target, MPI_INFO_NULL, &req);
    else if (is_alltoallv)
      PERSISTENT_ALLTOALLV_INIT(send, counts, in_order, MPI_BYTE, recv, counts, displs, MPI_BYTE, target,
                                MPI_INFO_NULL, &req);
    else if (is_gatherv)
      PERSISTENT_GATHERV_INIT(send, (int)bytes, MPI_BYTE, recv, counts, displs, MPI_BYTE, 0, target,
                              MPI_INFO_NULL, &req);
    else if (is_scatterv)
      PERSISTENT_SCATTERV_INIT(send, counts, displs, MPI_BYTE, recv, (int)bytes, MPI_BYTE, 0, target,
                               MPI_INFO_NULL, &req);
    else PERSISTENT_BARRIER_INIT(target, MPI_INFO_NULL, &req);
  }
  for (int round = 0; round < (g_fresh ? 6 : 3); round++) {
    for (size_t i = 0; i < total; i++) {
      send[i] = is_alltoall || is_scatter || is_alltoallv ? pattern(rank, (int)(i / bytes), i % bytes + (size_t)round)
              : is_scatterv ? pattern(rank, size - 1 - (int)(i / bytes), i % bytes + (size_t)round) /* reversed */
              : per_rank ? pattern(rank, 0, i + (size_t)round) : pattern(0, 0, i + (size_t)round);
      recv[i] = rank == 0 && is_bcast ? send[i] : 0;
    }
    if (is_allreduce || is_scan || is_rsb)
      for (int i = 0; i < doubles; i++) ((double*)send)[i] = rank + i % 7 + round;
    if (persistent) MPI_Start(&req);
    else if (is_bcast) MPI_Ibcast(recv, (int)bytes, MPI_BYTE, 0, target, &req);
    else if (is_alltoall) MPI_Ialltoall(send, (int)bytes, MPI_BYTE, recv, (int)bytes, MPI_BYTE, target, &req);
    else if (is_allreduce) MPI_Iallreduce(send, recv, doubles, MPI_DOUBLE, MPI_SUM, target, &req);
    else if (is_allgather) MPI_Iallgather(send, (int)bytes, MPI_BYTE, recv, (int)bytes, MPI_BYTE, target, &req);
    else if (is_gather) MPI_Igather(send, (int)bytes, MPI_BYTE, recv, (int)bytes, MPI_BYTE, 0, target, &req);
    else if (is_scatter) MPI_Iscatter(send, (int)bytes, MPI_BYTE, recv, (int)bytes, MPI_BYTE, 0, target, &req);
    else if (is_allgatherv)
      MPI_Iallgatherv(send, (int)bytes, MPI_BYTE, recv, counts, displs, MPI_BYTE, target, &req);
    else if (is_scan) MPI_Iscan(send, recv, doubles, MPI_DOUBLE, MPI_SUM, target, &req);
    else if (is_rsb) MPI_Ireduce_scatter_block(send, recv, block, MPI_DOUBLE, MPI_SUM, target, &req);
    else if (is_alltoallv)
      MPI_Ialltoallv(send, counts, in_order, MPI_BYTE, recv, counts, displs, MPI_BYTE, target, &req);
    else if (is_gatherv)
      MPI_Igatherv(send, (int)bytes, MPI_BYTE, recv, counts, displs, MPI_BYTE, 0, target, &req);
    else if (is_scatterv)
      MPI_Iscatterv(send, counts, displs, MPI_BYTE, recv, (int)bytes, MPI_BYTE, 0, target, &req);
    else MPI_Ibarrier(target, &req);
    if (rank == 0) {
      block_or_signal(how, aside);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      block_or_signal(how, aside);
    }
    CHECK(persistent ? req != MPI_REQUEST_NULL : req == MPI_REQUEST_NULL, "round %d: the request after MPI_Wait", round);
    int bad = 0;
    /* Sums over ranks r of (r + i % 7 + round): exact in doubles. */
    for (int i = 0; is_allreduce && i < doubles && !bad; i++)
      bad = ((double*)recv)[i] != size * (size - 1) / 2.0 + (double)size * (i % 7 + round);
    for (int i = 0; is_scan && i < doubles && !bad; i++)  /* ranks 0..rank */
      bad = ((double*)recv)[i] != rank * (rank + 1) / 2.0 + (double)(rank + 1) * (i % 7 + round);
    for (int i = 0; is_rsb && i < block && !bad; i++)
      bad = ((double*)recv)[i] != size * (size - 1) / 2.0 + (double)size * ((rank * block + i) % 7 + round);
    for (size_t i = 0; (is_allgather || (is_gather && rank == 0)) && i < total && !bad; i++)
      bad = recv[i] != pattern((int)(i / bytes), 0, i % bytes + (size_t)round);
    for (size_t i = 0; (is_allgatherv || (is_gatherv && rank == 0) || is_alltoallv) && i < total && !bad; i++) {
      const int from = size - 1 - (int)(i / bytes);  /* reversed displacements */
      bad = recv[i] != pattern(from, is_alltoallv ? rank : 0, i % bytes + (size_t)round);
    }
    for (size_t i = 0; (is_scatter || is_scatterv) && i < bytes && !bad; i++)
      bad = recv[i] != pattern(0, rank, i + (size_t)round);
    for (size_t i = 0; i < total && !bad; i++) {
      const unsigned char want = is_alltoall ? pattern((int)(i / bytes), rank, i % bytes + (size_t)round)
                                             : pattern(0, 0, i + (size_t)round);
      if ((is_bcast || is_alltoall) && recv[i] != want) bad = 1;
    }
    CHECK(!bad, "round %d: %s: wrong data", round, g_case);
  }
  if (persistent) MPI_Request_free(&req);
  if (g_fresh) MPI_Comm_free(&target);
  free(send);
  free(recv);
  free(counts);
  free(displs);
  free(in_order);
  alarm(0);
}

int main(int argc, char** argv) {
  const int all = argc >= 2 && !strcmp(argv[1], "all");
  if (argc < (all ? 2 : 4)) {
    fprintf(stderr, "usage: test_progress OP BYTES BLOCKING [level] [persistent] | test_progress all [level]\n");
    return 2;
  }
  const char* level_name = argc > (all ? 2 : 4) ? argv[all ? 2 : 4] : "single";
  g_fresh = all && argc > 3 && !strcmp(argv[3], "fresh");
  const int wanted = !strcmp(level_name, "multiple")     ? MPI_THREAD_MULTIPLE
                     : !strcmp(level_name, "serialized") ? MPI_THREAD_SERIALIZED
                     : !strcmp(level_name, "funneled")   ? MPI_THREAD_FUNNELED
                                                         : MPI_THREAD_SINGLE;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, wanted, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(provided >= wanted, "the MPI library gives thread level %d, %d was asked for", provided, wanted);
#if defined(MPICH_VERSION)
  g_persistent_to_library = world_across_hosts() && provided < MPI_THREAD_MULTIPLE;
#endif
  signal(SIGALRM, on_alarm);
  MPI_Comm aside;
  MPI_Comm_dup(MPI_COMM_WORLD, &aside);
  /* A first blocking call sets the communicator up (non-blocking calls may not). */
  MPI_Barrier(MPI_COMM_WORLD);
  if (all) {
    /* Sizes of several rounds of the staging areas (the rounds wait for rank 0). */
    static const char* ops[] = {"ibcast", "ialltoall", "ibarrier", "iallreduce", "iallgather", "igather",
                                "iscatter", "iallgatherv", "iscan", "ireduce_scatter_block", "ialltoallv",
                                "igatherv", "iscatterv"};
    static const size_t sizes[] = {4u << 20, 64u << 10, 0, 4u << 20, 64u << 10, 1u << 20, 1u << 20, 1u << 20,
                                   1u << 20, 4u << 20, 64u << 10, 1u << 20, 1u << 20};
    static const char* calls[] = {"recv", "allreduce", "iprobe", "ssend", "comm_dup", "barrier"};
    for (int o = 0; o < 13; o++)
      for (int c = 0; c < 6; c++)
        for (int p = 0; p < 2; p++) run_case(ops[o], sizes[o], calls[c], p, aside);
  } else {
    run_case(argv[1], (size_t)atol(argv[2]), argv[3], argc > 5 && !strcmp(argv[5], "persistent"), aside);
  }
  MPI_Comm_free(&aside);
  if (rank == 0) printf("test_progress: %s at thread level %s\n", all ? "every case" : g_case, level_name);
  return check_finish("test_progress");
}
