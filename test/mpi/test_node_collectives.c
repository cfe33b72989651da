/* MPI_Alltoallv, MPI_Allgatherv, MPI_Gather(v), MPI_Scatter(v), MPI_Reduce_scatter(_block),
 * MPI_Scan and MPI_Exscan against the MPI library's own result, in a seeded random sequence of
 * calls on one communicator (the state carried from call to call: lines, leases, staging
 * halves), then on a duplicate of it.
 *
 * Each call runs twice with the same inputs: through the interposed MPI_X (the path the
 * environment forces or the table chooses) and through PMPI_X. Receive buffers start alike
 * (a fixed byte pattern) and must end byte for byte alike, gaps and guard included. Drawn per
 * call: the collective, the root, the block sizes (zero for some ranks, up to several rounds
 * of the staging areas), each rank's datatype among types of one signature (int, two ints
 * contiguous, two ints with a gap, two ints in reversed order), displacements in reversed order
 * with gaps, MPI_IN_PLACE where the standard allows it. The reductions use integer data (exact
 * in any order) with MPI_SUM, MPI_MAX, and a user op that does not commute (the first operand
 * unless it is 0), on int, double (integer values) and two ints contiguous (user op).
 *
 * Usage: test_node_collectives [calls] [seed] [max_ints] [nonblocking|persistent]
 *        (defaults 300, 1, 40000, blocking): the forms of the calls under test (MPI_IX and
 *        MPI_Wait; MPI_X_init, MPI_Start, MPI_Wait, MPI_Request_free); the oracle stays PMPI_X. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "persistent.h"

static int form_ = 0; /* the calls under test: 0 blocking, 1 non-blocking, 2 persistent */
#define CALL(blocking, nonblocking, persistent, ...)                                   \
  do {                                                                                 \
    if (form_ == 0) {                                                                  \
      blocking(__VA_ARGS__);                                                           \
    } else {                                                                           \
      MPI_Request r_;                                                                  \
      if (form_ == 1) {                                                                \
        nonblocking(__VA_ARGS__, &r_);                                                 \
      } else {                                                                         \
        persistent(__VA_ARGS__, MPI_INFO_NULL, &r_);                                   \
        MPI_Start(&r_);                                                                \
      }                                                                                \
      MPI_Wait(&r_, MPI_STATUS_IGNORE);                                                \
      if (form_ == 2) MPI_Request_free(&r_);                                           \
    }                                                                                  \
  } while (0)

enum { kGuard = 32, kTypes = 4 };
static const unsigned char kPattern = 0x5A;

typedef struct {
  MPI_Datatype t;
  int ints;        /* ints of signature per element */
  MPI_Aint extent; /* bytes from one element to the next */
} ty_t;
static ty_t types[kTypes];

static uint64_t rng_state;
static uint64_t rnd(void) {  /* the same sequence on every rank */
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}
static int below(int n) { return n <= 0 ? 0 : (int)(rnd() % (uint64_t)n); }

static void make_types(void) {
  types[0] = (ty_t){MPI_INT, 1, sizeof(int)};
  MPI_Datatype t;
  MPI_Type_contiguous(2, MPI_INT, &t);
  MPI_Type_commit(&t);
  types[1] = (ty_t){t, 2, 2 * sizeof(int)};
  MPI_Datatype v;
  MPI_Type_vector(2, 1, 2, MPI_INT, &v);
  MPI_Type_create_resized(v, 0, 4 * sizeof(int), &t);
  MPI_Type_free(&v);
  MPI_Type_commit(&t);
  types[2] = (ty_t){t, 2, 4 * sizeof(int)};
  int lens[2] = {1, 1}, displs[2] = {1, 0};
  MPI_Type_indexed(2, lens, displs, MPI_INT, &t);
  MPI_Type_commit(&t);
  types[3] = (ty_t){t, 2, 2 * sizeof(int)};
}

/* A type whose element holds a divisor of `ints` (every block is a whole number of elements). */
static const ty_t* pick_type(int ints, int who) {
  int k = (int)((rnd() >> (who % 32)) % kTypes);
  if (ints % types[k].ints) k = 0;
  return &types[k];
}

/* `ints` ints of data of rank `rank`, block `b`, written into buf as `count` elements of ty. */
static void fill(char* buf, const ty_t* ty, int count, int rank, int b, int salt) {
  int* tmp = malloc(sizeof(int) * (size_t)(count * ty->ints + 1));
  for (int i = 0; i < count * ty->ints; ++i) tmp[i] = (rank * 131 + b * 17 + i * 7 + salt) % 1000 + 1;
  int pos = 0;
  MPI_Unpack(tmp, (int)(sizeof(int) * (size_t)(count * ty->ints)), &pos, buf, count, ty->t, MPI_COMM_SELF);
  free(tmp);
}

static char* alloc_pattern(size_t bytes) {
  char* p = malloc(bytes + kGuard);
  memset(p, kPattern, bytes + kGuard);
  return p;
}

static void compare(const char* what, const char* a, const char* b, size_t bytes, int call) {
  size_t at = 0;
  while (at < bytes + kGuard && a[at] == b[at]) ++at;
  CHECK(at == bytes + kGuard, "call %d: %s differs from the expected result at byte %zu of %zu", call, what, at,
        bytes);
}

/* Per-rank block sizes in ints: some zero, some up to max_ints, the same on every rank. */
static void block_ints(int* ints, int n, int max_ints, int even) {
  const int cls = below(3);  /* a line, a few KiB, several staging rounds */
  const int cap = cls == 0 ? 8 : cls == 1 ? 2048 : max_ints;
  for (int r = 0; r < n; ++r) {
    int v = below(5) == 0 ? 0 : 1 + below(cap);
    if (even) v += v & 1;
    ints[r] = v;
  }
}

/* Displacements (elements) of n blocks in reversed order with gaps; returns elements spanned. */
static int reversed_displs(const int* counts, int* displs, int n) {
  int at = 0;
  for (int r = n - 1; r >= 0; --r) {
    displs[r] = at;
    at += counts[r] + below(3);
  }
  return at;
}

static int rank_, size_;

static void t_gather(int call, int vform, MPI_Comm comm, int max_ints) {
  int* ints = malloc(sizeof(int) * (size_t)size_);
  block_ints(ints, size_, max_ints, 1);
  const int root = below(size_), in_place = below(3) == 0;
  if (!vform) for (int r = 0; r < size_; ++r) ints[r] = ints[0];
  const ty_t* st = pick_type(ints[rank_], rank_);
  const ty_t* rt = pick_type(2, root + 7);  /* the root's receive type: every block is even */
  int* counts = malloc(sizeof(int) * (size_t)size_);
  int* displs = malloc(sizeof(int) * (size_t)size_);
  for (int r = 0; r < size_; ++r) counts[r] = ints[r] / rt->ints;
  const int span = vform ? reversed_displs(counts, displs, size_) : counts[0] * size_;
  const int scount = ints[rank_] / st->ints;
  char* sbuf = alloc_pattern((size_t)scount * (size_t)st->extent);
  fill(sbuf, st, scount, rank_, 0, call);
  const size_t rbytes = (size_t)span * (size_t)rt->extent;
  char* a = alloc_pattern(rbytes);
  char* b = alloc_pattern(rbytes);
  const int ip = in_place && rank_ == root;
  if (ip) {  /* the root's own block already in place */
    const MPI_Aint at = (vform ? displs[root] : root * counts[0]) * rt->extent;
    fill(a + at, rt, counts[root], rank_, 0, call);
    fill(b + at, rt, counts[root], rank_, 0, call);
  }
  const void* s = ip ? MPI_IN_PLACE : sbuf;
  /* Half the calls pass what the standard ignores as nothing: the receive side off the root, the
   * send count in place at the root. A rank that sized a call by those would take another path
   * than the others (entry/fast_handoff.hpp: the root's side at the root). */
  const int sloppy = below(2) == 0;
  void* ra = sloppy && rank_ != root ? NULL : a;
  const int rcount = sloppy && rank_ != root ? 0 : counts[0];
  const int own = sloppy && ip ? 0 : scount;
  if (vform) {
    CALL(MPI_Gatherv, MPI_Igatherv, PERSISTENT_GATHERV_INIT, s, scount, st->t, a, counts, displs, rt->t, root, comm);
    PMPI_Gatherv(s, scount, st->t, b, counts, displs, rt->t, root, comm);
  } else {
    CALL(MPI_Gather, MPI_Igather, PERSISTENT_GATHER_INIT, s, own, st->t, ra, rcount, rt->t, root, comm);
    PMPI_Gather(s, scount, st->t, b, counts[0], rt->t, root, comm);
  }
  if (rank_ == root) compare(vform ? "gatherv" : "gather", a, b, rbytes, call);
  free(ints), free(counts), free(displs), free(sbuf), free(a), free(b);
}

static void t_scatter(int call, int vform, MPI_Comm comm, int max_ints) {
  int* ints = malloc(sizeof(int) * (size_t)size_);
  block_ints(ints, size_, max_ints, 1);
  const int root = below(size_), in_place = below(3) == 0;
  if (!vform) for (int r = 0; r < size_; ++r) ints[r] = ints[0];
  const ty_t* st = pick_type(2, root + 3);
  const ty_t* rt = pick_type(ints[rank_], rank_ + 11);
  int* counts = malloc(sizeof(int) * (size_t)size_);
  int* displs = malloc(sizeof(int) * (size_t)size_);
  for (int r = 0; r < size_; ++r) counts[r] = ints[r] / st->ints;
  const int span = vform ? reversed_displs(counts, displs, size_) : counts[0] * size_;
  char* sbuf = alloc_pattern((size_t)span * (size_t)st->extent);
  for (int r = 0; r < size_; ++r) fill(sbuf + (vform ? displs[r] : r * counts[0]) * st->extent, st, counts[r], rank_, r, call);
  const int rcount = ints[rank_] / rt->ints;
  const size_t rbytes = (size_t)rcount * (size_t)rt->extent;
  char* a = alloc_pattern(rbytes);
  char* b = alloc_pattern(rbytes);
  void* ra = in_place && rank_ == root ? MPI_IN_PLACE : a;
  void* rb = in_place && rank_ == root ? MPI_IN_PLACE : b;
  /* As in t_gather: half the calls pass nothing where the standard ignores the arguments. */
  const int sloppy = below(2) == 0;
  const void* sa = sloppy && rank_ != root ? NULL : sbuf;
  const int scount = sloppy && rank_ != root ? 0 : counts[0];
  const int own = sloppy && in_place && rank_ == root ? 0 : rcount;
  if (vform) {
    CALL(MPI_Scatterv, MPI_Iscatterv, PERSISTENT_SCATTERV_INIT, sbuf, counts, displs, st->t, ra, rcount, rt->t, root, comm);
    PMPI_Scatterv(sbuf, counts, displs, st->t, rb, rcount, rt->t, root, comm);
  } else {
    CALL(MPI_Scatter, MPI_Iscatter, PERSISTENT_SCATTER_INIT, sa, scount, st->t, ra, own, rt->t, root, comm);
    PMPI_Scatter(sbuf, counts[0], st->t, rb, rcount, rt->t, root, comm);
  }
  compare(vform ? "scatterv" : "scatter", a, b, rbytes, call);
  free(ints), free(counts), free(displs), free(sbuf), free(a), free(b);
}

static void t_allgatherv(int call, MPI_Comm comm, int max_ints) {
  int* ints = malloc(sizeof(int) * (size_t)size_);
  block_ints(ints, size_, max_ints, 1);
  const int in_place = below(3) == 0;
  const ty_t* st = pick_type(ints[rank_], rank_);
  const ty_t* rt = pick_type(2, rank_ + 5);
  /* Types that differ between ranks (one signature) only where every call is on mcorecoll's
   * path (TEST_MIXED_ALLGATHERV): Open MPI 4.1's own allgatherv hangs or raises
   * MPI_ERR_TRUNCATE in such draws without mcorecoll (doc/mpi-defects.md). */
  if (!getenv("TEST_MIXED_ALLGATHERV")) st = rt = &types[1];
  int* counts = malloc(sizeof(int) * (size_t)size_);
  int* displs = malloc(sizeof(int) * (size_t)size_);
  for (int r = 0; r < size_; ++r) counts[r] = ints[r] / rt->ints;
  const int span = reversed_displs(counts, displs, size_);
  const int scount = ints[rank_] / st->ints;
  char* sbuf = alloc_pattern((size_t)scount * (size_t)st->extent);
  fill(sbuf, st, scount, rank_, 0, call);
  const size_t rbytes = (size_t)span * (size_t)rt->extent;
  char* a = alloc_pattern(rbytes);
  char* b = alloc_pattern(rbytes);
  if (in_place) {
    fill(a + displs[rank_] * rt->extent, rt, counts[rank_], rank_, 0, call);
    fill(b + displs[rank_] * rt->extent, rt, counts[rank_], rank_, 0, call);
  }
  const void* s = in_place ? MPI_IN_PLACE : sbuf;
  CALL(MPI_Allgatherv, MPI_Iallgatherv, PERSISTENT_ALLGATHERV_INIT, s, scount, st->t, a, counts, displs, rt->t, comm);
  /* The expected result is written here: every rank's block holds the data that rank filled. */
  for (int r = 0; r < size_; ++r) fill(b + displs[r] * rt->extent, rt, counts[r], r, 0, call);
  compare("allgatherv", a, b, rbytes, call);
  free(ints), free(counts), free(displs), free(sbuf), free(a), free(b);
}

static void t_alltoallv(int call, MPI_Comm comm, int max_ints) {
  /* ints[s * n + d]: from s to d, drawn alike on every rank. */
  int* ints = malloc(sizeof(int) * (size_t)(size_ * size_));
  for (int s = 0; s < size_; ++s) block_ints(ints + s * size_, size_, max_ints / size_ + 2, 1);
  const int in_place = below(4) == 0;
  if (in_place)  /* the standard: one set of counts for both directions */
    for (int s = 0; s < size_; ++s)
      for (int d = 0; d < s; ++d) ints[s * size_ + d] = ints[d * size_ + s];
  const ty_t* st = pick_type(2, rank_);
  const ty_t* rt = in_place ? st : pick_type(2, rank_ + 9);
  int *sc = malloc(sizeof(int) * (size_t)size_), *sd = malloc(sizeof(int) * (size_t)size_);
  int *rc = malloc(sizeof(int) * (size_t)size_), *rd = malloc(sizeof(int) * (size_t)size_);
  for (int r = 0; r < size_; ++r) {
    sc[r] = ints[rank_ * size_ + r] / st->ints;
    rc[r] = ints[r * size_ + rank_] / rt->ints;
  }
  const int sspan = reversed_displs(sc, sd, size_), rspan = reversed_displs(rc, rd, size_);
  char* sbuf = alloc_pattern((size_t)sspan * (size_t)st->extent);
  for (int r = 0; r < size_; ++r) fill(sbuf + sd[r] * st->extent, st, sc[r], rank_, r, call);
  const size_t rbytes = (size_t)rspan * (size_t)rt->extent;
  char* a = alloc_pattern(rbytes);
  char* b = alloc_pattern(rbytes);
  if (in_place) {
    for (int r = 0; r < size_; ++r) {
      fill(a + rd[r] * rt->extent, rt, rc[r], rank_, r, call);
      fill(b + rd[r] * rt->extent, rt, rc[r], rank_, r, call);
    }
    CALL(MPI_Alltoallv, MPI_Ialltoallv, PERSISTENT_ALLTOALLV_INIT, MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, a, rc, rd, rt->t, comm);
    PMPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, b, rc, rd, rt->t, comm);
  } else {
    CALL(MPI_Alltoallv, MPI_Ialltoallv, PERSISTENT_ALLTOALLV_INIT, sbuf, sc, sd, st->t, a, rc, rd, rt->t, comm);
    PMPI_Alltoallv(sbuf, sc, sd, st->t, b, rc, rd, rt->t, comm);
  }
  compare("alltoallv", a, b, rbytes, call);
  free(ints), free(sc), free(sd), free(rc), free(rd), free(sbuf), free(a), free(b);
}

/* The user op that does not commute: the first operand, unless it is 0. */
static void first_nonzero(void* in, void* inout, int* len, MPI_Datatype* type) {
  int n = *len;
  if (*type != MPI_INT) n *= 2;  /* two ints contiguous */
  int* x = in;
  int* y = inout;
  for (int i = 0; i < n; ++i)
    if (x[i] != 0) y[i] = x[i];
}
static MPI_Op first_op;

static void t_reduction(int call, int which, MPI_Comm comm, int max_ints) {
  /* which: 0 reduce_scatter_block, 1 reduce_scatter, 2 scan, 3 exscan */
  const int kind = below(4);  /* int sum, int max, double sum, pair user op */
  MPI_Datatype t = kind == 2 ? MPI_DOUBLE : kind == 3 ? types[1].t : MPI_INT;
  MPI_Op op = kind == 1 ? MPI_MAX : kind == 3 ? first_op : MPI_SUM;
  const size_t esize = kind == 2 ? sizeof(double) : kind == 3 ? 2 * sizeof(int) : sizeof(int);
  int* counts = malloc(sizeof(int) * (size_t)size_);
  block_ints(counts, size_, max_ints / (which < 2 ? size_ : 1) / 2 + 1, 0);
  if (which == 0 || which >= 2) for (int r = 0; r < size_; ++r) counts[r] = counts[0];
  int total = 0, first = 0;
  for (int r = 0; r < size_; ++r) {
    if (r == rank_) first = total;
    total += counts[r];
  }
  const int in_count = which < 2 ? total : counts[0];
  const int out_count = which < 2 ? counts[rank_] : counts[0];
  const int in_place = below(3) == 0;
  char* in = alloc_pattern((size_t)in_count * esize);
  const int scalars = kind == 2 ? in_count : in_count * (int)(esize / sizeof(int));
  for (int i = 0; i < scalars; ++i) {
    const int v = (rank_ * 37 + i * 11 + call) % (kind == 3 ? 3 : 100);  /* zeros for the user op */
    if (kind == 2) ((double*)in)[i] = v;
    else ((int*)in)[i] = v;
  }
  const size_t rbytes = (size_t)(in_place ? in_count : out_count) * esize;
  char* a = alloc_pattern(rbytes);
  char* b = alloc_pattern(rbytes);
  if (in_place) {
    memcpy(a, in, (size_t)in_count * esize);
    memcpy(b, in, (size_t)in_count * esize);
  }
  const void* s = in_place ? MPI_IN_PLACE : in;
  (void)first;
  switch (which) {
    case 0:
      CALL(MPI_Reduce_scatter_block, MPI_Ireduce_scatter_block, PERSISTENT_REDUCE_SCATTER_BLOCK_INIT, s, a, counts[0], t, op, comm);
      PMPI_Reduce_scatter_block(s, b, counts[0], t, op, comm);
      break;
    case 1:
      CALL(MPI_Reduce_scatter, MPI_Ireduce_scatter, PERSISTENT_REDUCE_SCATTER_INIT, s, a, counts, t, op, comm);
      PMPI_Reduce_scatter(s, b, counts, t, op, comm);
      break;
    case 2:
      CALL(MPI_Scan, MPI_Iscan, PERSISTENT_SCAN_INIT, s, a, counts[0], t, op, comm);
      PMPI_Scan(s, b, counts[0], t, op, comm);
      break;
    default:
      CALL(MPI_Exscan, MPI_Iexscan, PERSISTENT_EXSCAN_INIT, s, a, counts[0], t, op, comm);
      PMPI_Exscan(s, b, counts[0], t, op, comm);
      break;
  }
  static const char* names[] = {"reduce_scatter_block", "reduce_scatter", "scan", "exscan"};
  /* Defined results only: exscan's rank 0 gets none; in place, only the own block is defined
   * for the reduce-scatters. */
  const size_t checked = which == 3 && rank_ == 0 ? 0 : (size_t)out_count * esize;
  CHECK(memcmp(a, b, checked) == 0, "call %d: %s differs from the MPI library's result", call, names[which]);
  if (!in_place) CHECK(memcmp(a + checked, b + checked, rbytes - checked + kGuard) == 0,
                       "call %d: %s wrote past its result", call, names[which]);
  free(counts), free(in), free(a), free(b);
}

static void run(MPI_Comm comm, int calls, int max_ints, const char* only) {
  /* A blocking collective first: a non-blocking call never sets a communicator up. */
  MPI_Barrier(comm);
  for (int call = 0; call < calls; ++call) {
    const int c = below(10);
    if (only && strtol(only, NULL, 10) != c) continue;
    if (c == 0) t_gather(call, 0, comm, max_ints);
    else if (c == 1) t_gather(call, 1, comm, max_ints);
    else if (c == 2) t_scatter(call, 0, comm, max_ints);
    else if (c == 3) t_scatter(call, 1, comm, max_ints);
    else if (c == 4) t_allgatherv(call, comm, max_ints);
    else if (c == 5) t_alltoallv(call, comm, max_ints);
    else t_reduction(call, c - 6, comm, max_ints);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  const int calls = argc > 1 ? atoi(argv[1]) : 300;
  rng_state = 0x9E3779B97F4A7C15ull * (uint64_t)(argc > 2 ? atoi(argv[2]) : 1) + 1;
  const int max_ints = argc > 3 ? atoi(argv[3]) : 40000;
  const char* only = getenv("TEST_ONLY");
  if (argc > 4) form_ = !strcmp(argv[4], "nonblocking") ? 1 : !strcmp(argv[4], "persistent") ? 2 : 0;
  make_types();
  MPI_Op_create(first_nonzero, 0, &first_op);
  run(MPI_COMM_WORLD, calls, max_ints, only);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  run(dup, calls / 3, max_ints, only);
  MPI_Comm_free(&dup);
  MPI_Op_free(&first_op);
  for (int k = 1; k < kTypes; ++k) MPI_Type_free(&types[k].t);
  return check_finish("test_node_collectives");
}
