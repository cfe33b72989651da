/* Communicators used only with non-blocking collectives (node/setup_window.hpp): their set-up is
 * made without any rank waiting, and their ranks take mcorecoll's paths together from a call
 * they agree on.
 *   only      a duplicate, a reordered split and a communicator made from a group (reversed)
 *             of MPI_COMM_WORLD, each used only with
 *             non-blocking collectives (every one mcorecoll has an operation for, in turn),
 *             completed by every completion call in turn, with point-to-point messages between;
 *             then, once the switch is known, calls whose requests are freed. Checked byte for
 *             byte; rank 0 prints the statistics the run must show ("expect stats ..."), from the
 *             switch call that mcorecoll_describe() names, which must come within a tenth of the
 *             calls after the window opened (issue #53's goal: 90% of them on mcorecoll's paths)
 *   blocking  a blocking barrier inside the window: the switch comes at that call at the latest,
 *             at it exactly where the window opened on the call before
 *   freed     communicators freed 0-3 calls after their window opened, and at MPI_Finalize
 *   spanning  a split across pretend nodes of a world not set up inside MPI_Init: no set-up at its
 *             making nor without waiting (across nodes a switch cannot be agreed without
 *             waiting), every call on the MPI library's paths, checked
 *   splits    parts of a world cut into pretend nodes (MCORECOLL_TEST_NODE_SIZE), used only with
 *             non-blocking collectives: a reordered split, a split by type, a communicator made
 *             by MPI_Comm_create and by MPI_Comm_create_group, a grid (MPI_Cart_create) and its
 *             row (MPI_Cart_sub), and a graph, a distributed graph and an adjacent one made from
 *             the split are set up at their making (entry/runtime.cpp), on mcorecoll's
 *             paths from call N exactly; a split inside one node is set up without waiting;
 *             splits and parts made by their members alone past MCORECOLL_SETUP_AT_SPLIT (as
 *             the launcher sets it) are not set up at their making, nor a split of the grid
 *             after two freed before their Nth call, until one lives. "splits-multiple": the same
 *             under MPI_THREAD_MULTIPLE
 *   dups      duplicates of such a world (node/dup_setup.hpp), set up at MPI_Comm_dup: a duplicate
 *             and a duplicate of it (MPI_Comm_dup_with_info) used only with non-blocking calls,
 *             on mcorecoll's paths from call N exactly; duplicates made, used past N and freed in
 *             turn (the parent's lines by turns), one kept, and a blocking call between; two
 *             freed before call N, after which the next is not set up at MPI_Comm_dup, and one
 *             used past N, after which the next is again; then one that lived and one freed early,
 *             freed in another order on odd and even ranks, and two freed early, after which
 *             the next is not set up at MPI_Comm_dup on any rank.
 *             "dups-multiple": the same under MPI_THREAD_MULTIPLE (MPICH moves operations across
 *             nodes only there), where each duplicate gets a source of its own
 *   ahead     the other ranks many calls ahead of rank 0 when they take their view of the segment,
 *             and paused right after (MCORECOLL_TEST_WINDOW_PAUSE_US, as the launcher sets it)
 *             while rank 0, the last to take its view, closes the switch line: every rank must
 *             still switch at one call (else requests never match, or data mix)
 * Usage: test_nonblocking_setup PART [iterations] */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "switch_call.h"
#include "complete.h"

enum {
  kIbarrier, kIbcast, kIalltoall, kIallreduce, kIreduce, kIallgather, kIallgatherv, kIgather, kIscatter,
  kIreduceScatter, kIreduceScatterBlock, kIscan, kIexscan, kOps
};
static const char* const kNames[kOps] = {"ibarrier",  "ibcast",   "ialltoall", "iallreduce",      "ireduce",
                                         "iallgather", "iallgatherv", "igather", "iscatter", "ireduce_scatter",
                                         "ireduce_scatter_block", "iscan", "iexscan"};

/* Calls per collective on mcorecoll's paths and on the MPI library's, this rank, all
 * communicators. */
static long on_shm[kOps], on_pmpi[kOps];

/* Rank r's element k of call i. */
static int value(int r, int k, int i) { return (r + 1) * 1000 + k * 7 + i; }

static int rank_of(MPI_Comm comm) {
  int r;
  MPI_Comm_rank(comm, &r);
  return r;
}
static int size_of(MPI_Comm comm) {
  int n;
  MPI_Comm_size(comm, &n);
  return n;
}


/* The buffers of calls whose requests were freed: nothing tells when those complete (MPI promises
 * no order of completion), so they are freed after MPI_Finalize, which completes everything. */
static void* left[1024];
static int nleft = 0;

/* One non-blocking collective `op` on `comm` as its call number `i`, of `m` elements a rank (or
 * block), completed by completion call `method` (-1: its request freed, to be completed by the
 * communicator's next call), checked against what every rank gave. */
static void run(MPI_Comm comm, int op, int i, int m, int method) {
  const int me = rank_of(comm), n = size_of(comm), root = i % n;
  const size_t all = (size_t)m * (size_t)n + (size_t)n * (size_t)n;
  int* in = malloc(all * sizeof(int));
  int* out = malloc(all * sizeof(int));
  int* counts = malloc((size_t)n * sizeof(int));
  int* displs = malloc((size_t)n * sizeof(int));
  for (size_t k = 0; k < all; k++) in[k] = value(me, (int)k, i), out[k] = -1;
  int total = 0;
  for (int r = 0; r < n; r++) counts[r] = m + r % 3, displs[r] = total, total += counts[r];
  MPI_Request request = MPI_REQUEST_NULL;
  int rc = MPI_SUCCESS;
  switch (op) {
    case kIbarrier: rc = MPI_Ibarrier(comm, &request); break;
    case kIbcast:
      rc = MPI_Ibcast(me == root ? in : out, m, MPI_INT, root, comm, &request);
      break;
    case kIalltoall: rc = MPI_Ialltoall(in, m, MPI_INT, out, m, MPI_INT, comm, &request); break;
    case kIallreduce: rc = MPI_Iallreduce(in, out, m, MPI_INT, MPI_SUM, comm, &request); break;
    case kIreduce: rc = MPI_Ireduce(in, out, m, MPI_INT, MPI_SUM, root, comm, &request); break;
    case kIallgather: rc = MPI_Iallgather(in, m, MPI_INT, out, m, MPI_INT, comm, &request); break;
    case kIallgatherv:
      rc = MPI_Iallgatherv(in, counts[me], MPI_INT, out, counts, displs, MPI_INT, comm, &request);
      break;
    case kIgather: rc = MPI_Igather(in, m, MPI_INT, out, m, MPI_INT, root, comm, &request); break;
    case kIscatter:
      rc = MPI_Iscatter(in, m, MPI_INT, out, m, MPI_INT, root, comm, &request);
      break;
    case kIreduceScatter: rc = MPI_Ireduce_scatter(in, out, counts, MPI_INT, MPI_SUM, comm, &request); break;
    case kIreduceScatterBlock: rc = MPI_Ireduce_scatter_block(in, out, m, MPI_INT, MPI_SUM, comm, &request); break;
    case kIscan: rc = MPI_Iscan(in, out, m, MPI_INT, MPI_SUM, comm, &request); break;
    case kIexscan: rc = MPI_Iexscan(in, out, m, MPI_INT, MPI_SUM, comm, &request); break;
  }
  CHECK(rc == MPI_SUCCESS, "%s call %d", kNames[op], i);
  if (method < 0) {
    CHECK(MPI_Request_free(&request) == MPI_SUCCESS, "MPI_Request_free of %s", kNames[op]);
    free(counts), free(displs);
    if (nleft + 2 <= (int)(sizeof left / sizeof left[0])) left[nleft++] = in, left[nleft++] = out;
    return;
  }
  CHECK(complete_request(&request, method) == MPI_SUCCESS, "%s by %s", kNames[op], completion_name(method));
  /* What every element must be. */
  int bad = 0;
  for (int k = 0; k < m && !bad; k++) {
    long sum = 0, prefix = 0;
    for (int r = 0; r < n; r++) sum += value(r, k, i);
    for (int r = 0; r < me; r++) prefix += value(r, k, i);
    switch (op) {
      case kIbcast: bad = out[k] != (me == root ? -1 : value(root, k, i)); break;
      case kIalltoall:
        for (int r = 0; r < n; r++) bad |= out[r * m + k] != value(r, me * m + k, i);
        break;
      case kIallreduce: bad = out[k] != sum; break;
      case kIreduce: bad = me == root && out[k] != sum; break;
      case kIallgather:
        for (int r = 0; r < n; r++) bad |= out[r * m + k] != value(r, k, i);
        break;
      case kIgather:
        for (int r = 0; r < n && me == root; r++) bad |= out[r * m + k] != value(r, k, i);
        break;
      case kIscatter: bad = out[k] != value(root, me * m + k, i); break;
      case kIreduceScatterBlock: {
        long s = 0;
        for (int r = 0; r < n; r++) s += value(r, me * m + k, i);
        bad = out[k] != s;
        break;
      }
      case kIscan: bad = out[k] != prefix + value(me, k, i); break;
      case kIexscan: bad = me > 0 && out[k] != prefix; break;
    }
  }
  if (op == kIallgatherv)
    for (int r = 0; r < n; r++)
      for (int k = 0; k < counts[r]; k++) bad |= out[displs[r] + k] != value(r, k, i);
  if (op == kIreduceScatter)
    for (int k = 0; k < counts[me]; k++) {
      long s = 0;
      for (int r = 0; r < n; r++) s += value(r, displs[me] + k, i);
      bad |= out[k] != s;
    }
  CHECK(!bad, "%s call %d (%d elements) by %s: wrong data", kNames[op], i, m, completion_name(method));
  free(in), free(out), free(counts), free(displs);
}

/* A point-to-point exchange around the ring, posted before a collective and completed after. */
typedef struct {
  int send, recv;
  MPI_Request requests[2];
} ring_t;
static void ring_post(ring_t* t, MPI_Comm comm, int i) {
  const int me = rank_of(comm), n = size_of(comm);
  t->send = value(me, 0, i);
  MPI_Irecv(&t->recv, 1, MPI_INT, (me + n - 1) % n, 7, comm, &t->requests[0]);
  MPI_Isend(&t->send, 1, MPI_INT, (me + 1) % n, 7, comm, &t->requests[1]);
}
static void ring_end(ring_t* t, MPI_Comm comm, int i) {
  const int me = rank_of(comm), n = size_of(comm);
  MPI_Status statuses[2]; /* not MPI_STATUSES_IGNORE: GCC 12 takes MPICH's for an empty array */
  MPI_Waitall(2, t->requests, statuses);
  CHECK(t->recv == value((me + n - 1) % n, 0, i), "point-to-point next to the collectives");
}

/* The window opens at call N (MCORECOLL_SETUP_AFTER, as the test's launcher sets it). */
static long setup_after(void) {
  const char* v = getenv("MCORECOLL_SETUP_AFTER");
  return v && *v ? atol(v) : 16;
}

/* `calls` non-blocking collectives in turn on `comm`, then the switch looked up and counted:
 * calls before it on the MPI library's paths, from it on mcorecoll's. */
static void only_nonblocking(MPI_Comm comm, int calls, int first_op) {
  int op_of[4096];
  for (int i = 1; i <= calls; i++) {
    const int op = (first_op + i) % kOps;
    op_of[i] = op;
    ring_t ring;
    if (i % 5 == 0) ring_post(&ring, comm, i);
    run(comm, op, i, i % 4 == 0 ? 3000 : 1 + i % 7, i);
    if (i % 5 == 0) ring_end(&ring, comm, i);
  }
  const long at = switch_call(comm); /* a blocking call of its own where the window is still open */
  CHECK(at > 0, "no set-up without waiting on a communicator used only with non-blocking calls");
  const long n = setup_after();
  CHECK(at - n <= calls / 10, "the switch came at call %ld, %ld calls after the window opened at %ld (of %d)", at,
        at - n, n, calls);
  for (int i = 1; i <= calls; i++) (i >= at ? on_shm : on_pmpi)[op_of[i]]++;
  /* From here every call takes mcorecoll's paths: requests freed, the last one waited for. */
  for (int i = 0; i < 2 * kOps; i++) {
    run(comm, i % kOps, calls + 2 + i, 1 + i % 5, i + 1 == 2 * kOps ? 0 : -1);
    on_shm[i % kOps]++;
  }
}

static void expect_stats(void) {
  long shm[kOps], pmpi[kOps];
  PMPI_Reduce(on_shm, shm, kOps, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  PMPI_Reduce(on_pmpi, pmpi, kOps, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank_of(MPI_COMM_WORLD) != 0) return;
  for (int op = 0; op < kOps; op++) {
    /* the algorithm's name: the lanes where the settings force them, else the node algorithm's
     * (bcast's ring, alltoall's staged exchange) */
    char setting[64] = "MCORECOLL_";
    for (const char* c = kNames[op] + 1; *c && strlen(setting) + 1 < sizeof setting; c++)
      setting[strlen(setting)] = (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
    const char* forced = getenv(setting);
    const char* algorithm = forced && !strcmp(forced, "lanes")   ? "lanes"
                            : !strcmp(kNames[op], "ibcast")    ? "ring"
                            : !strcmp(kNames[op], "ialltoall") ? "staged"
                                                               : "shm";
    if (shm[op]) printf("expect stats %s %s calls=%ld\n", kNames[op], algorithm, shm[op]);
    if (pmpi[op]) printf("expect stats %s pmpi calls=%ld\n", kNames[op], pmpi[op]);
  }
  fflush(stdout);
}

/* Initialized with MPI_THREAD_MULTIPLE (the "-multiple" parts). */
static int multiple = 0;

int main(int argc, char** argv) {
  const char* part = argc > 1 ? argv[1] : "only";
  if (strcmp(part, "dups-multiple") == 0 || strcmp(part, "splits-multiple") == 0) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK(provided == MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE not provided (%d)", provided);
    part = part[0] == 'd' ? "dups" : "splits";
    multiple = 1;
  } else {
    MPI_Init(&argc, &argv);
  }
  const int calls = argc > 2 ? atoi(argv[2]) : 60;
  const int me = rank_of(MPI_COMM_WORLD), n = size_of(MPI_COMM_WORLD);
  if (strcmp(part, "only") == 0) {
    MPI_Comm dup, split, made;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, 0, n - me, &split); /* reordered */
    /* From a group, made by its members alone (MPI_Comm_create_group), in reversed order. */
    MPI_Group world_group, reversed;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    int range[1][3] = {{n - 1, 0, -1}};
    MPI_Group_range_incl(world_group, 1, range, &reversed);
    MPI_Comm_create_group(MPI_COMM_WORLD, reversed, 5, &made);
    MPI_Group_free(&reversed);
    MPI_Group_free(&world_group);
    only_nonblocking(dup, calls, 0);
    only_nonblocking(split, calls, 5);
    only_nonblocking(made, calls, 9);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&split);
    MPI_Comm_free(&made);
    expect_stats();
  } else if (strcmp(part, "blocking") == 0) {
    /* Non-blocking calls up to the window and a few past it, then a blocking barrier: the
     * switch is that barrier, on every rank, whatever each rank had seen of the exchange. */
    const long open = setup_after();
    for (int round = 0; round < 4; round++) {
      MPI_Comm dup;
      MPI_Comm_dup(MPI_COMM_WORLD, &dup);
      const int before = (int)open + round;
      for (int i = 1; i <= before; i++) run(dup, kIallreduce, i, 2, i);
      CHECK(MPI_Barrier(dup) == MPI_SUCCESS, "the barrier in the window");
      /* At the barrier at the latest; at it exactly where the window opened on the call before. */
      const long at = switch_call(dup);
      CHECK(at > open && at <= before + 1, "the switch at %ld: after the opening %ld, by the barrier %d", at, open,
            before + 1);
      CHECK(round > 0 || at == before + 1, "the switch at %ld, not at the barrier right after the opening", at);
      run(dup, kIalltoall, before + 3, 2, 0);
      MPI_Comm_free(&dup);
    }
  } else if (strcmp(part, "freed") == 0) {
    /* Freed while the set-up is under way, at every stage; the last one left to MPI_Finalize. */
    const long open = setup_after();
    for (int extra = 0; extra < 4; extra++) {
      MPI_Comm dup;
      MPI_Comm_dup(MPI_COMM_WORLD, &dup);
      for (int i = 1; i < open + extra; i++) run(dup, kIbcast, i, 3, i);
      MPI_Comm_free(&dup);
    }
    MPI_Comm kept;
    MPI_Comm_dup(MPI_COMM_WORLD, &kept);
    for (int i = 1; i <= open + 1; i++) run(kept, kIallgather, i, 3, i);
  } else if (strcmp(part, "dups") == 0) {
    const long open = setup_after();
    MPI_Comm dup, inner;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "false");
    MPI_Comm_dup_with_info(dup, info, &inner);
    MPI_Info_free(&info);
    CHECK(switch_call(dup) == open, "a duplicate across nodes not set up at MPI_Comm_dup (switch %ld)", switch_call(dup));
    only_nonblocking(dup, calls, 0);
    CHECK(switch_call(inner) == open, "a duplicate of a duplicate not set up at MPI_Comm_dup_with_info");
    only_nonblocking(inner, calls, 4);
    /* Made, used past the switch and freed in turn: duplicate k hands its segment through the
     * parent's line k % 2; a blocking call now and then on one of them. */
    MPI_Comm kept = MPI_COMM_NULL;
    for (int round = 0; round < 7; round++) {
      MPI_Comm next;
      MPI_Comm_dup(round % 2 ? dup : MPI_COMM_WORLD, &next);
      CHECK(switch_call(next) == open, "duplicate %d not set up at MPI_Comm_dup", round);
      for (int i = 1; i <= open + 2; i++) {
        const int op = (round + i) % kOps;
        run(next, op, i, 1 + i % 3, i);
        (i >= open ? on_shm : on_pmpi)[op]++;
      }
      if (round == 3) {
        long one = 1, all = 0;
        CHECK(MPI_Allreduce(&one, &all, 1, MPI_LONG, MPI_SUM, next) == MPI_SUCCESS && all == n,
              "a blocking allreduce on a duplicate set up at MPI_Comm_dup");
      }
      if (round == 5) kept = next;
      else MPI_Comm_free(&next);
    }
    run(kept, kIallreduce, 99, 5, 0);
    on_shm[kIallreduce]++;
    MPI_Comm_free(&kept);
    /* Freed before their Nth call twice in a row: the next duplicate is not set up at
     * MPI_Comm_dup (below MPI_THREAD_MULTIPLE) and its calls go to the MPI library; it lives past
     * N, so the one after is set up there again. Not described while deferred: describing sets
     * a communicator up. */
    for (int life = 0; life < 4; life++) {
      MPI_Comm next;
      MPI_Comm_dup(MPI_COMM_WORLD, &next);
      const int deferred = life == 2 && !multiple;
      if (!deferred) CHECK(switch_call(next) == open, "duplicate %d of the churn not set up at MPI_Comm_dup", life);
      for (int i = 1; life >= 2 && i <= open + 2; i++) {
        const int op = (life + i) % kOps;
        run(next, op, i, 2, i);
        (i >= open && !deferred ? on_shm : on_pmpi)[op]++;
      }
      MPI_Comm_free(&next);
    }
    /* Frees in another order on each rank between two duplications (a destructor's order): one
     * that lived and one freed early count alike on every rank (a batch, not a sequence), so
     * every rank takes the same path at the next duplications: set up at the duplication twice
     * (each freed early), then not. */
    MPI_Comm lived, early;
    MPI_Comm_dup(MPI_COMM_WORLD, &lived);
    MPI_Comm_dup(MPI_COMM_WORLD, &early);
    for (int i = 1; i <= open + 2; i++) {
      run(lived, kIbcast, i, 2, i);
      (i >= open ? on_shm : on_pmpi)[kIbcast]++;
    }
    if (me % 2) MPI_Comm_free(&lived), MPI_Comm_free(&early);
    else MPI_Comm_free(&early), MPI_Comm_free(&lived);
    for (int life = 0; life < 3; life++) {
      MPI_Comm next;
      MPI_Comm_dup(MPI_COMM_WORLD, &next);
      const int deferred = life == 2 && !multiple;
      if (!deferred) CHECK(switch_call(next) == open, "duplicate %d after reordered frees not set up at MPI_Comm_dup", life);
      for (int i = 1; life == 2 && i <= open + 2; i++) {
        run(next, kIscan, i, 2, i);
        (i >= open && !deferred ? on_shm : on_pmpi)[kIscan]++;
      }
      MPI_Comm_free(&next);
    }
    MPI_Comm_free(&inner);
    MPI_Comm_free(&dup);
    expect_stats();
  } else if (strcmp(part, "spanning") == 0) {
    MPI_Comm split; /* of a world not set up: set up neither at its making nor without waiting */
    MPI_Comm_split(MPI_COMM_WORLD, 0, me, &split);
    for (int i = 1; i <= calls; i++) {
      const int op = i % 2 ? kIallreduce : kIbcast;
      run(split, op, i, 1 + i % 5, i);
      on_pmpi[op]++;
    }
    CHECK(switch_call(split) == 0, "a communicator across nodes set up without waiting");
    MPI_Comm_free(&split);
    expect_stats();
  } else if (strcmp(part, "splits") == 0) {
    const long open = setup_after();
    const char* budget_text = getenv("MCORECOLL_SETUP_AT_SPLIT");
    const long budget = budget_text && *budget_text ? atol(budget_text) : 8;
    CHECK(budget >= 5, "the test needs MCORECOLL_SETUP_AT_SPLIT of 5 or more (%ld)", budget);
    MPI_Comm split, typed, made, node, members;
    const char* size_text = getenv("MCORECOLL_TEST_NODE_SIZE");
    const int node_size = size_text && *size_text ? atoi(size_text) : n;
    MPI_Comm_split(MPI_COMM_WORLD, 0, n - me, &split); /* reordered */
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, n - me, MPI_INFO_NULL, &typed);
    MPI_Group world_group, reversed;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    int range[1][3] = {{n - 1, 0, -1}};
    MPI_Group_range_incl(world_group, 1, range, &reversed);
    MPI_Comm_create(MPI_COMM_WORLD, reversed, &made);
    MPI_Comm_create_group(MPI_COMM_WORLD, reversed, 6, &members);
    MPI_Group_free(&reversed);
    MPI_Group_free(&world_group);
    /* One pretend node: set up without waiting; across real hosts (no pretend nodes) it is the
     * whole world, set up at its making. */
    MPI_Comm_split(MPI_COMM_WORLD, me / node_size, me, &node);
    /* A grid of one row and its row: every rank, and more than one on some node (a part with
     * one rank a node would go to the MPI library whole). */
    MPI_Comm cart, column;
    int dims[2] = {1, n}, periods[2] = {0, 0}, remain[2] = {0, 1};
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Cart_sub(cart, remain, &column);
    /* A split by type spans pretend nodes; across real hosts it lies on one (set up without
     * waiting, not described before: describing sets a communicator up). */
    const int typed_spans = size_text && *size_text;
    MPI_Comm parts[3] = {split, typed, made};
    for (int p = 0; p < 3; p++) {
      if (p == 1 && !typed_spans) {
        if (size_of(typed) > 1) only_nonblocking(typed, calls, 3);
        continue;
      }
      CHECK(switch_call(parts[p]) == open, "part %d across nodes not set up at its making (switch %ld)", p,
            switch_call(parts[p]));
      only_nonblocking(parts[p], calls, 3 * p);
    }
    for (int p = 0; p < 2; p++) {
      MPI_Comm grid = p ? column : cart;
      CHECK(switch_call(grid) == open, "%s not set up at its making (switch %ld)",
            p ? "MPI_Cart_sub" : "MPI_Cart_create", switch_call(grid));
      only_nonblocking(grid, calls, 7 + p);
    }
    /* The grid's parts' fates (Fates): two freed before their Nth call, after which the next is
     * not set up at its making (describing it sets it up: it lived), after which the next is
     * again. The grid's count: its row and these four. */
    for (int k = 0; k < 4; k++) {
      MPI_Comm part;
      MPI_Comm_split(cart, 0, me, &part);
      const long at = switch_call(part), want = k == 2 ? 0 : open;
      CHECK(at == want, "the grid's split %d after two freed early: switch %ld, not %ld", k + 1, at, want);
      MPI_Comm_free(&part);
    }
    /* The graphs, made from the reordered split (its own count): a ring, and its neighbours
     * as a distributed graph, given by each rank's edge and adjacently, unweighted. */
    if (size_of(split) <= 64) {
      const int sn = size_of(split), sr = rank_of(split);
      int index[64], edges[128], right = (sr + 1) % sn, left = (sr + sn - 1) % sn, one = 1;
      for (int r = 0; r < sn; r++) {
        index[r] = 2 * (r + 1);
        edges[2 * r] = (r + sn - 1) % sn, edges[2 * r + 1] = (r + 1) % sn;
      }
      MPI_Comm graphs[3];
      const char* graph_calls[3] = {"MPI_Graph_create", "MPI_Dist_graph_create", "MPI_Dist_graph_create_adjacent"};
      MPI_Graph_create(split, sn, index, edges, 0, &graphs[0]);
/* Open MPI's MPI_UNWEIGHTED is a small constant address, which GCC takes for an array read. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overread"
      MPI_Dist_graph_create(split, 1, &sr, &one, &right, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graphs[1]);
      MPI_Dist_graph_create_adjacent(split, 1, &left, MPI_UNWEIGHTED, 1, &right, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                     &graphs[2]);
#pragma GCC diagnostic pop
      for (int g = 0; g < 3; g++) {
        CHECK(switch_call(graphs[g]) == open, "%s not set up at its making (switch %ld)", graph_calls[g],
              switch_call(graphs[g]));
        only_nonblocking(graphs[g], calls, 4 + g);
        MPI_Comm_free(&graphs[g]);
      }
    }
    /* On one node: the window's switch (only_nonblocking() checks it); a rank alone on its node
     * has a communicator of one rank, which mcorecoll never takes. */
    if (size_of(node) > 1) only_nonblocking(node, calls, 2);
    /* Made by its members alone, who agree that each is within its count. */
    CHECK(switch_call(members) == open, "MPI_Comm_create_group's part not set up at its making (switch %ld)",
          switch_call(members));
    only_nonblocking(members, calls, 10);
    /* Its 2nd onwards: set up up to the count, not after (kept until all are made: freed
     * before their Nth call they would defer the next, as the grid's). */
    MPI_Comm kept[64];
    int nkept = 0;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    for (long k = 2; k <= budget + 1 && nkept < 64; k++) {
      MPI_Comm_create_group(MPI_COMM_WORLD, world_group, 7, &kept[nkept]);
      const long at = switch_call(kept[nkept++]);
      CHECK(k <= budget ? at == open : at == 0, "MPI_Comm_create_group %ld of a count of %ld: switch %ld", k, budget, at);
    }
    MPI_Group_free(&world_group);
    /* The world's 6th split onwards (after split, typed, made, node and cart): set up at their
     * making up to the budget, not after. */
    for (long k = 6; k <= budget + 1 && nkept < 64; k++) {
      MPI_Comm_split(MPI_COMM_WORLD, 0, me, &kept[nkept]);
      const long at = switch_call(kept[nkept++]);
      CHECK(k <= budget ? at == open : at == 0, "split %ld of a budget of %ld: switch %ld", k, budget, at);
    }
    while (nkept > 0) MPI_Comm_free(&kept[--nkept]);
    MPI_Comm_free(&split);
    MPI_Comm_free(&typed);
    MPI_Comm_free(&made);
    MPI_Comm_free(&members);
    MPI_Comm_free(&node);
    MPI_Comm_free(&column);
    MPI_Comm_free(&cart);
    expect_stats();
  } else if (strcmp(part, "ahead") == 0) {
    /* Rank 0 starts the window's exchange 100 ms late; the others go on at a call a ms and
     * complete the exchange far ahead. Requests are completed at the end, so no rank waits. */
    const long open = setup_after();
    const int total = (int)open + 150;
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Request* requests = malloc((size_t)total * sizeof(MPI_Request));
    long* in = malloc((size_t)total * sizeof(long));
    long* out = malloc((size_t)total * sizeof(long));
    for (int i = 0; i < total; i++) {
      if (me == 0 && i + 1 == open) usleep(100000);
      if (me != 0) usleep(1000);
      in[i] = value(me, 0, i);
      CHECK(MPI_Iallreduce(&in[i], &out[i], 1, MPI_LONG, MPI_SUM, dup, &requests[i]) == MPI_SUCCESS, "call %d", i + 1);
    }
    MPI_Status* statuses = malloc((size_t)total * sizeof(MPI_Status)); /* as in ring_end() */
    CHECK(MPI_Waitall(total, requests, statuses) == MPI_SUCCESS, "MPI_Waitall");
    free(statuses);
    int bad = 0;
    for (int i = 0; i < total; i++) {
      long sum = 0;
      for (int r = 0; r < n; r++) sum += value(r, 0, i);
      if (out[i] != sum && !bad) bad = i + 1;
    }
    CHECK(!bad, "call %d: wrong sum", bad);
    const long at = switch_call(dup);
    CHECK(at > open, "the switch at %ld, not after the window opened at %ld", at, open);
    free(requests), free(in), free(out);
    MPI_Comm_free(&dup);
  } else {
    if (me == 0) fprintf(stderr, "test_nonblocking_setup: unknown part %s\n", part);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int status = check_finish("test_nonblocking_setup");
  while (nleft > 0) free(left[--nleft]);
  return status;
}
