/* MPI_Ibarrier, MPI_Ibcast and MPI_Ialltoall through mcorecoll, checked byte for byte:
 *   outstanding  many operations at once, on three communicators and next to point-to-point
 *                requests, completed in an order of each rank's own with every completion call
 *   mixed        blocking and non-blocking calls on one communicator, completed after
 *   free         requests freed before completion; a communicator freed with one pending (run
 *                with every call forced onto mcorecoll's paths: Open MPI 4.1 and MPICH 4.0
 *                both refuse MPI_Request_free on their own active collective requests)
 *   backoff      a rank that waits two seconds for a late peer uses little CPU (np 2)
 *   threads      with MPI_THREAD_MULTIPLE, threads on their own communicators
 *   overlap      with MCORECOLL_PROGRESS=thread: a bcast root that computes without calling
 *                MPI still feeds its readers (they finish long before it returns to MPI)
 * Usage: test_nonblocking PART [iterations] */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "byte_calls.h"
#include "check.h"
#include "complete.h"

enum kind { kBarrier, kBcast, kAlltoall, kAlltoallInPlace, kPointToPoint };

/* One operation of the test: what it is, its buffers, and its request. */
typedef struct {
  enum kind kind;
  MPI_Comm comm;
  size_t bytes;  /* bcast: the message; alltoall: one block */
  int root, salt;
  unsigned char *a, *b;
  MPI_Request request;
} op_t;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int rank_of(MPI_Comm comm) {
  int me;
  MPI_Comm_rank(comm, &me);
  return me;
}

static int size_of(MPI_Comm comm) {
  int n;
  MPI_Comm_size(comm, &n);
  return n;
}

/* A communicator's first blocking collective sets it up for mcorecoll's shared memory (a
 * non-blocking call may not wait for the other ranks, so it goes to the MPI library before). */
static void set_up(MPI_Comm comm) { CHECK(MPI_Barrier(comm) == MPI_SUCCESS, "the set-up barrier"); }

static void post(op_t* op) {
  const int me = rank_of(op->comm), n = size_of(op->comm);
  const size_t all = op->bytes * (size_t)n;
  int rc = MPI_SUCCESS;
  switch (op->kind) {
    case kBarrier: rc = MPI_Ibarrier(op->comm, &op->request); break;
    case kBcast:
      op->a = malloc(op->bytes + 1);
      for (size_t i = 0; i < op->bytes; i++) op->a[i] = me == op->root ? byte_pattern(op->root, 0, i, op->salt) : 0xee;
      rc = MPI_Ibcast(op->a, (int)op->bytes, MPI_BYTE, op->root, op->comm, &op->request);
      break;
    case kAlltoall:
    case kAlltoallInPlace:
      op->a = malloc(all + 1);
      op->b = malloc(all + 1);
      for (int p = 0; p < n; p++)
        for (size_t i = 0; i < op->bytes; i++) op->a[(size_t)p * op->bytes + i] = byte_pattern(me, p, i, op->salt);
      if (op->kind == kAlltoall) {
        memset(op->b, 0xee, all);
        rc = MPI_Ialltoall(op->a, (int)op->bytes, MPI_BYTE, op->b, (int)op->bytes, MPI_BYTE, op->comm, &op->request);
      } else {
        rc = MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, op->a, (int)op->bytes, MPI_BYTE, op->comm, &op->request);
      }
      break;
    case kPointToPoint: /* a ring: receive from the left, send to the right (two requests) */
      op->a = malloc(op->bytes + 1);
      op->b = malloc(op->bytes + 1);
      for (size_t i = 0; i < op->bytes; i++) op->a[i] = byte_pattern(me, 1, i, op->salt);
      rc = MPI_Isend(op->a, (int)op->bytes, MPI_BYTE, (me + 1) % n, op->salt, op->comm, &op->request);
      break;
  }
  CHECK(rc == MPI_SUCCESS, "posting kind %d of %zu bytes: rc %d", (int)op->kind, op->bytes, rc);
}

/* Checks the operation's data (it is complete) and frees its buffers. */
static void check_op(op_t* op) {
  const int n = size_of(op->comm);
  const int me = rank_of(op->comm);
  switch (op->kind) {
    case kBarrier: break;
    case kBcast:
      for (size_t i = 0; i < op->bytes; i++)
        if (op->a[i] != byte_pattern(op->root, 0, i, op->salt)) {
          CHECK(0, "salt %d: ibcast of %zu bytes from %d wrong at %zu", op->salt, op->bytes, op->root, i);
          break;
        }
      break;
    case kAlltoall:
    case kAlltoallInPlace: {
      const unsigned char* got = op->kind == kAlltoall ? op->b : op->a;
      for (int p = 0; p < n; p++)
        for (size_t i = 0; i < op->bytes; i++)
          if (got[(size_t)p * op->bytes + i] != byte_pattern(p, me, i, op->salt)) {
            CHECK(0, "salt %d: ialltoall%s block of %zu bytes from %d wrong at %zu", op->salt,
                  op->kind == kAlltoall ? "" : " in place", op->bytes, p, i);
            p = n;
            break;
          }
      break;
    }
    case kPointToPoint: {
      const int left = (me + n - 1) % n;
      for (size_t i = 0; i < op->bytes; i++)
        if (op->b[i] != byte_pattern(left, 1, i, op->salt)) {
          CHECK(0, "salt %d: point-to-point message wrong at %zu", op->salt, i);
          break;
        }
      break;
    }
  }
  free(op->a);
  free(op->b);
  op->a = op->b = NULL;
}

/* Sizes on every path: slots, one ring cell, more cells than the ring holds (the source must
 * come back to fill them), and, with the defaults, single copy and PMPI. */
static const size_t kBcastBytes[] = {0, 1, 100, 5000, 40000, 300000, 2000000};
static const size_t kBlockBytes[] = {0, 1, 64, 3000, 40000, 300000};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* A random permutation, different on every rank. */
static void shuffle(int* order, int n, unsigned* seed) {
  for (int i = 0; i < n; i++) order[i] = i;
  for (int i = n - 1; i > 0; i--) {
    const int j = (int)(rand_r(seed) % (unsigned)(i + 1));
    const int t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
}

/* Posts a mix of operations on `comms` (plus a point-to-point ring on the first), then
 * completes them: one by one in a random order with the completion calls in turn, or all at
 * once with MPI_Waitall, or with MPI_Waitany / MPI_Waitsome until none is left. */
static void outstanding(MPI_Comm* comms, int ncomms, int iterations, int salt_base) {
  enum { kMaxOps = 16 };
  unsigned seed = 1234u + 77u * (unsigned)rank_of(MPI_COMM_WORLD) + (unsigned)salt_base;
  for (int it = 0; it < iterations; it++) {
    op_t ops[kMaxOps];
    int nops = 0;
    for (int k = 0; k < 8; k++) {
      op_t* op = &ops[nops++];
      memset(op, 0, sizeof(*op));
      op->comm = comms[(it + k) % ncomms];
      op->salt = salt_base + it * 16 + k;
      op->kind = (enum kind)(k % 4);
      op->root = (it + k) % size_of(op->comm);
      op->bytes = op->kind == kBcast ? kBcastBytes[(it + k) % COUNT(kBcastBytes)]
                                     : kBlockBytes[(it * 3 + k) % COUNT(kBlockBytes)];
      post(op);
    }
    /* Point to point among them: its receive is a request of its own. */
    op_t* p2p = &ops[nops++];
    memset(p2p, 0, sizeof(*p2p));
    p2p->kind = kPointToPoint;
    p2p->comm = comms[0];
    p2p->bytes = 1000;
    p2p->salt = salt_base + it * 16 + 15;
    post(p2p);
    MPI_Request receive;
    const int n0 = size_of(comms[0]), me0 = rank_of(comms[0]);
    MPI_Irecv(p2p->b, (int)p2p->bytes, MPI_BYTE, (me0 + n0 - 1) % n0, p2p->salt, comms[0], &receive);

    MPI_Request all[kMaxOps + 1];
    MPI_Status statuses[kMaxOps + 1];
    for (int i = 0; i < nops; i++) all[i] = ops[i].request;
    all[nops] = receive;
    const int nall = nops + 1;
    const int style = it % 4;
    if (style == 0) {
      int order[kMaxOps + 1];
      shuffle(order, nall, &seed);
      for (int i = 0; i < nall; i++) {
        const int m = order[i] + it;
        const int rc = complete_request(&all[order[i]], m);
        CHECK(rc == MPI_SUCCESS && all[order[i]] == MPI_REQUEST_NULL, "%s: rc %d", completion_name(m), rc);
      }
    } else if (style == 1) {
      CHECK(MPI_Waitall(nall, all, statuses) == MPI_SUCCESS, "waitall");
    } else if (style == 2) {
      for (int left = nall; left > 0; left--) {
        int index = -1;
        MPI_Status status;
        CHECK(MPI_Waitany(nall, all, &index, &status) == MPI_SUCCESS && index >= 0 && index < nall,
              "waitany index %d", index);
      }
    } else {
      int done = 0;
      while (done < nall) {
        int outcount = 0, indices[kMaxOps + 1];
        CHECK(MPI_Waitsome(nall, all, &outcount, indices, statuses) == MPI_SUCCESS &&
                  outcount > 0, "waitsome outcount %d", outcount);
        if (outcount <= 0) break;
        done += outcount;
      }
    }
    for (int i = 0; i < nall; i++) CHECK(all[i] == MPI_REQUEST_NULL, "request %d not freed", i);
    for (int i = 0; i < nops; i++) check_op(&ops[i]);
  }
}

/* Blocking calls between a communicator's non-blocking ones. */
static void mixed(MPI_Comm comm, int iterations) {
  for (int it = 0; it < iterations; it++) {
    op_t bcast = {.kind = kBcast, .comm = comm, .bytes = kBcastBytes[it % COUNT(kBcastBytes)],
                  .root = it % size_of(comm), .salt = 1000 + it};
    op_t a2a = {.kind = kAlltoall, .comm = comm, .bytes = kBlockBytes[it % COUNT(kBlockBytes)], .salt = 2000 + it};
    op_t barrier = {.kind = kBarrier, .comm = comm};
    post(&bcast);
    unsigned char buf[70000], send[4096], recv[4096];
    checked_bcast(comm, buf, (size_t)(it * 997) % sizeof(buf), (it + 1) % size_of(comm), 3000 + it);
    post(&a2a);
    CHECK(MPI_Barrier(comm) == MPI_SUCCESS, "barrier");
    post(&barrier);
    checked_alltoall(comm, send, recv, (size_t)(1 + it % 8), 4000 + it);
    MPI_Request all[3] = {barrier.request, a2a.request, bcast.request};
    MPI_Status statuses[3];
    CHECK(MPI_Waitall(3, all, statuses) == MPI_SUCCESS, "waitall");
    check_op(&bcast);
    check_op(&a2a);
  }
}

/* Requests freed at once: the operations still complete (a blocking call on the communicator
 * waits for them), also when the communicator itself is freed. */
static void free_early(int iterations) {
  for (int it = 0; it < iterations; it++) {
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    set_up(comm);
    op_t bcast = {.kind = kBcast, .comm = comm, .bytes = kBcastBytes[it % COUNT(kBcastBytes)],
                  .root = it % size_of(comm), .salt = 5000 + it};
    op_t a2a = {.kind = kAlltoall, .comm = comm, .bytes = kBlockBytes[it % COUNT(kBlockBytes)], .salt = 6000 + it};
    post(&bcast);
    post(&a2a);
    CHECK(MPI_Request_free(&bcast.request) == MPI_SUCCESS && bcast.request == MPI_REQUEST_NULL, "free");
    CHECK(MPI_Request_free(&a2a.request) == MPI_SUCCESS, "free");
    if (it % 2 == 0) {
      CHECK(MPI_Barrier(comm) == MPI_SUCCESS, "barrier after freed requests");
      CHECK(MPI_Comm_free(&comm) == MPI_SUCCESS, "comm free");
    } else {
      CHECK(MPI_Comm_free(&comm) == MPI_SUCCESS, "comm free with pending operations");
    }
    bcast.comm = a2a.comm = MPI_COMM_WORLD;  /* same ranks and size: for the checks */
    check_op(&bcast);
    check_op(&a2a);
  }
}

static double cpu_seconds(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return (double)u.ru_utime.tv_sec + 1e-6 * (double)u.ru_utime.tv_usec + (double)u.ru_stime.tv_sec +
         1e-6 * (double)u.ru_stime.tv_usec;
}

/* Rank 0 sleeps two seconds before it starts the barrier; the others wait for it in MPI_Wait
 * and must back off: at most half a core while they wait. */
static void backoff(void) {
  const int me = rank_of(MPI_COMM_WORLD);
  MPI_Request request;
  set_up(MPI_COMM_WORLD);
  const double wall0 = now(), cpu0 = cpu_seconds();
  if (me == 0) {
    const struct timespec two = {2, 0};
    nanosleep(&two, NULL);
  }
  CHECK(MPI_Ibarrier(MPI_COMM_WORLD, &request) == MPI_SUCCESS, "ibarrier");
  CHECK(MPI_Wait(&request, MPI_STATUS_IGNORE) == MPI_SUCCESS, "wait");
  const double wall = now() - wall0, cpu = cpu_seconds() - cpu0;
  if (me != 0) {
    printf("test_nonblocking: rank %d waited %.2f s using %.2f s of CPU\n", me, wall, cpu);
    CHECK(wall > 1.0, "the barrier completed before rank 0 started it (%.2f s)", wall);
    CHECK(cpu < 0.5 * wall, "waiting used %.2f s of CPU in %.2f s", cpu, wall);
  }
}

typedef struct {
  MPI_Comm comm;
  int index, iterations;
} job_t;

static void* thread_main(void* arg) {
  const job_t* job = arg;
  outstanding((MPI_Comm*)&job->comm, 1, job->iterations, 100000 * (job->index + 1));
  return NULL;
}

static void threads(int iterations) {
  enum { kThreads = 3 };
  pthread_t t[kThreads];
  job_t jobs[kThreads];
  for (int i = 0; i < kThreads; i++) {
    MPI_Comm_dup(MPI_COMM_WORLD, &jobs[i].comm);
    set_up(jobs[i].comm);
    jobs[i].index = i;
    jobs[i].iterations = iterations;
  }
  for (int i = 0; i < kThreads; i++) pthread_create(&t[i], NULL, thread_main, &jobs[i]);
  for (int i = 0; i < kThreads; i++) pthread_join(t[i], NULL);
  for (int i = 0; i < kThreads; i++) MPI_Comm_free(&jobs[i].comm);
}

/* The root starts a bcast far larger than the ring and computes for three seconds without an
 * MPI call; the readers start it a moment later (so that the root's own call cannot move it
 * all while they read), and only a progress thread can feed the ring meanwhile. */
static void overlap(void) {
  const int me = rank_of(MPI_COMM_WORLD);
  op_t bcast = {.kind = kBcast, .comm = MPI_COMM_WORLD, .bytes = 4u << 20, .root = 0, .salt = 7};
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = now();
  if (me != 0) {
    const struct timespec moment = {0, 300 * 1000 * 1000};
    nanosleep(&moment, NULL);
  }
  post(&bcast);
  if (me == 0) {
    volatile double x = 1.0;
    while (now() - t0 < 3.0) x = x * 1.0000001 + 1e-9;
  }
  CHECK(MPI_Wait(&bcast.request, MPI_STATUS_IGNORE) == MPI_SUCCESS, "wait");
  const double waited = now() - t0;
  if (me != 0) {
    printf("test_nonblocking: rank %d had the 4 MiB bcast after %.2f s (the root computed for 3 s)\n", me, waited);
    CHECK(waited < 1.5, "the progress thread did not feed the ring: %.2f s", waited);
  }
  check_op(&bcast);
}

int main(int argc, char** argv) {
  const char* part = argc > 1 ? argv[1] : "outstanding";
  const int iterations = argc > 2 ? atoi(argv[2]) : 24;
  const bool needs_threads = strcmp(part, "threads") == 0 || strcmp(part, "overlap") == 0;
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, needs_threads ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
  if (needs_threads && provided < MPI_THREAD_MULTIPLE) {
    CHECK(0, "the MPI library gives only thread level %d", provided);
    return check_finish("test_nonblocking");
  }
  if (strcmp(part, "outstanding") == 0) {
    MPI_Comm comms[3];
    const int me = rank_of(MPI_COMM_WORLD), n = size_of(MPI_COMM_WORLD);
    comms[0] = MPI_COMM_WORLD;
    MPI_Comm_split(MPI_COMM_WORLD, 0, n - me, &comms[1]);  /* reordered */
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[2]);
    for (int c = 0; c < 3; c++) set_up(comms[c]);
    outstanding(comms, 3, iterations, 0);
    MPI_Comm_free(&comms[1]);
    MPI_Comm_free(&comms[2]);
  } else if (strcmp(part, "mixed") == 0) {
    set_up(MPI_COMM_WORLD);
    mixed(MPI_COMM_WORLD, iterations);
  } else if (strcmp(part, "free") == 0) {
    free_early(iterations);
  } else if (strcmp(part, "backoff") == 0) {
    backoff();
  } else if (strcmp(part, "threads") == 0) {
    threads(iterations);
  } else if (strcmp(part, "overlap") == 0) {
    overlap();
  } else {
    CHECK(0, "unknown part %s", part);
  }
  return check_finish("test_nonblocking");
}
