/* The datatype matrix: MPI_Bcast and MPI_Alltoall with every named type of the standard that
 * the MPI library offers (C types, the pair types, Fortran types reachable from C) and with
 * derived types (contiguous, vector, indexed out of order, struct with padding, resized,
 * zero-size), counts 0, 1, 2, 3, 17 and one element above every threshold in TEST_THRESHOLDS,
 * every root, each side with its own type or with a packed struct of the same signature, and
 * alltoall in place. The path (ring, slots, relay, single copy, staging, leaders' exchange,
 * PMPI) is chosen by the environment the test runs under.
 *
 * The expected layout of every type is written here by hand, as a list of fields (primitive
 * type, offset) per element, in signature order, independent of the library under test. Every
 * data byte is checked against the byte of the message it must hold, and every other byte of
 * a receive buffer (gaps, padding, the guard after the last element) must be left untouched.
 *
 * Each case first runs through PMPI_X: if the MPI library itself gets it wrong (on any rank),
 * the case is skipped with a message, so that its defects are not taken for ours.
 *
 * Usage: test_datatypes [gaps] [nonblocking]   TEST_THRESHOLDS=bytes,bytes,... (default below)
 * "gaps": only the types with gaps or out of order (pair types, derived types), for slow runs.
 * "nonblocking": the calls under test are MPI_Ibcast and MPI_Ialltoall, each completed by the
 * next of the completion calls in turn (complete.h); the oracle stays the blocking PMPI call.
 * "persistent": MPI_Bcast_init and MPI_Alltoall_init (MPIX_ in Open MPI), each started twice
 * (once in place) and completed likewise, then freed. */
#include <mpi.h>
#include <complex.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "check.h"
#include "complete.h"
#include "persistent.h"

enum { kMaxFields = 16, kGuard = 64, kMaxTypes = 96, kMaxCounts = 16 };
static const unsigned char kUntouched = 0x5A;  /* receive buffers start as this */
static const unsigned char kRootGap = 0xC3;    /* gaps of a sending buffer */

typedef struct {
  MPI_Datatype prim;
  MPI_Aint offset;
} field_t;

typedef struct {
  char name[64];
  MPI_Datatype type;   /* committed */
  int derived;         /* built here: freed at the end */
  MPI_Aint extent;     /* of one element, by construction */
  int nfields;
  field_t fields[kMaxFields];  /* one element's data, in signature order */
  MPI_Datatype packed; /* a struct of the same fields without gaps: same signature */
  MPI_Aint packed_extent;
  int size;            /* signature bytes of one element */
} tcase_t;

static tcase_t cases[kMaxTypes];
static int ncases = 0;
static int not_offered = 0;
static char not_offered_names[2048];
static int pmpi_defects = 0;
static long checked_calls = 0;

static int prim_size(MPI_Datatype prim) {
  int s = 0;
  MPI_Type_size(prim, &s);
  return s;
}

/* A packed struct of the fields of `c`, resized to their total size: the same signature,
 * no gaps, and a derived type (so the library packs it). */
static void make_packed(tcase_t* c) {
  int lens[kMaxFields];
  MPI_Aint disps[kMaxFields];
  MPI_Datatype types[kMaxFields];
  MPI_Aint at = 0;
  for (int f = 0; f < c->nfields; f++) {
    lens[f] = 1;
    disps[f] = at;
    types[f] = c->fields[f].prim;
    at += prim_size(c->fields[f].prim);
  }
  MPI_Datatype st;
  MPI_Type_create_struct(c->nfields, lens, disps, types, &st);
  MPI_Type_create_resized(st, 0, at, &c->packed);
  MPI_Type_commit(&c->packed);
  MPI_Type_free(&st);
  c->packed_extent = at;
  c->size = (int)at;
}

static tcase_t* new_case(const char* name, MPI_Datatype type, int derived, MPI_Aint extent) {
  tcase_t* c = &cases[ncases++];
  memset(c, 0, sizeof(*c));
  snprintf(c->name, sizeof(c->name), "%s", name);
  c->type = type;
  c->derived = derived;
  c->extent = extent;
  return c;
}

static void add_field(tcase_t* c, MPI_Datatype prim, MPI_Aint offset) {
  c->fields[c->nfields].prim = prim;
  c->fields[c->nfields].offset = offset;
  c->nfields++;
}

/* A named type the library may not offer (optional types are MPI_DATATYPE_NULL then). */
static bool offered(const char* name, MPI_Datatype type) {
  if (type != MPI_DATATYPE_NULL) return true;
  not_offered++;
  if (strlen(not_offered_names) + strlen(name) + 3 < sizeof(not_offered_names)) {
    strcat(not_offered_names, " ");
    strcat(not_offered_names, name);
  }
  return false;
}

/* A named type whose one element is one field of its own size at offset 0. */
static void basic(const char* name, MPI_Datatype type) {
  if (!offered(name, type)) return;
  tcase_t* c = new_case(name, type, 0, prim_size(type));
  add_field(c, type, 0);
}

/* A named pair type: two fields at the offsets of the C struct it stands for. */
static void pair(const char* name, MPI_Datatype type, MPI_Datatype a, MPI_Aint at_a, MPI_Datatype b,
                 MPI_Aint at_b, MPI_Aint extent) {
  if (!offered(name, type)) return;
  tcase_t* c = new_case(name, type, 0, extent);
  add_field(c, a, at_a);
  add_field(c, b, at_b);
}

#define PAIR(name, type, ta, tb, ma, mb)                                                     \
  do {                                                                                       \
    typedef struct { ta a; tb b; } pair_t;                                                   \
    pair(name, type, ma, offsetof(pair_t, a), mb, offsetof(pair_t, b), sizeof(pair_t));      \
  } while (0)

static void named_types(void) {
  basic("MPI_CHAR", MPI_CHAR);
  basic("MPI_SHORT", MPI_SHORT);
  basic("MPI_INT", MPI_INT);
  basic("MPI_LONG", MPI_LONG);
  basic("MPI_LONG_LONG_INT", MPI_LONG_LONG_INT);
  basic("MPI_LONG_LONG", MPI_LONG_LONG);
  basic("MPI_SIGNED_CHAR", MPI_SIGNED_CHAR);
  basic("MPI_UNSIGNED_CHAR", MPI_UNSIGNED_CHAR);
  basic("MPI_UNSIGNED_SHORT", MPI_UNSIGNED_SHORT);
  basic("MPI_UNSIGNED", MPI_UNSIGNED);
  basic("MPI_UNSIGNED_LONG", MPI_UNSIGNED_LONG);
  basic("MPI_UNSIGNED_LONG_LONG", MPI_UNSIGNED_LONG_LONG);
  basic("MPI_FLOAT", MPI_FLOAT);
  basic("MPI_DOUBLE", MPI_DOUBLE);
  basic("MPI_LONG_DOUBLE", MPI_LONG_DOUBLE);
  basic("MPI_WCHAR", MPI_WCHAR);
  basic("MPI_C_BOOL", MPI_C_BOOL);
  basic("MPI_INT8_T", MPI_INT8_T);
  basic("MPI_INT16_T", MPI_INT16_T);
  basic("MPI_INT32_T", MPI_INT32_T);
  basic("MPI_INT64_T", MPI_INT64_T);
  basic("MPI_UINT8_T", MPI_UINT8_T);
  basic("MPI_UINT16_T", MPI_UINT16_T);
  basic("MPI_UINT32_T", MPI_UINT32_T);
  basic("MPI_UINT64_T", MPI_UINT64_T);
  basic("MPI_AINT", MPI_AINT);
  basic("MPI_OFFSET", MPI_OFFSET);
  basic("MPI_COUNT", MPI_COUNT);
  basic("MPI_C_COMPLEX", MPI_C_COMPLEX);
  basic("MPI_C_FLOAT_COMPLEX", MPI_C_FLOAT_COMPLEX);
  basic("MPI_C_DOUBLE_COMPLEX", MPI_C_DOUBLE_COMPLEX);
  basic("MPI_C_LONG_DOUBLE_COMPLEX", MPI_C_LONG_DOUBLE_COMPLEX);
  basic("MPI_BYTE", MPI_BYTE);
  basic("MPI_PACKED", MPI_PACKED);
#ifdef MPI_CXX_BOOL
  basic("MPI_CXX_BOOL", MPI_CXX_BOOL);
  basic("MPI_CXX_FLOAT_COMPLEX", MPI_CXX_FLOAT_COMPLEX);
  basic("MPI_CXX_DOUBLE_COMPLEX", MPI_CXX_DOUBLE_COMPLEX);
  basic("MPI_CXX_LONG_DOUBLE_COMPLEX", MPI_CXX_LONG_DOUBLE_COMPLEX);
#endif
  /* The pair types of MPI_MINLOC/MPI_MAXLOC: laid out like the C structs they stand for, so
   * most have gaps (MPI_DOUBLE_INT: 12 bytes of data in 16). */
  PAIR("MPI_FLOAT_INT", MPI_FLOAT_INT, float, int, MPI_FLOAT, MPI_INT);
  PAIR("MPI_DOUBLE_INT", MPI_DOUBLE_INT, double, int, MPI_DOUBLE, MPI_INT);
  PAIR("MPI_LONG_INT", MPI_LONG_INT, long, int, MPI_LONG, MPI_INT);
  PAIR("MPI_2INT", MPI_2INT, int, int, MPI_INT, MPI_INT);
  PAIR("MPI_SHORT_INT", MPI_SHORT_INT, short, int, MPI_SHORT, MPI_INT);
  PAIR("MPI_LONG_DOUBLE_INT", MPI_LONG_DOUBLE_INT, long double, int, MPI_LONG_DOUBLE, MPI_INT);
  /* Fortran types, reachable from C. */
  basic("MPI_CHARACTER", MPI_CHARACTER);
  basic("MPI_LOGICAL", MPI_LOGICAL);
  basic("MPI_INTEGER", MPI_INTEGER);
  basic("MPI_REAL", MPI_REAL);
  basic("MPI_DOUBLE_PRECISION", MPI_DOUBLE_PRECISION);
  basic("MPI_COMPLEX", MPI_COMPLEX);
  basic("MPI_DOUBLE_COMPLEX", MPI_DOUBLE_COMPLEX);
  if (offered("MPI_2INTEGER", MPI_2INTEGER) && MPI_INTEGER != MPI_DATATYPE_NULL)
    pair("MPI_2INTEGER", MPI_2INTEGER, MPI_INTEGER, 0, MPI_INTEGER, prim_size(MPI_INTEGER), 2 * prim_size(MPI_INTEGER));
  if (offered("MPI_2REAL", MPI_2REAL) && MPI_REAL != MPI_DATATYPE_NULL)
    pair("MPI_2REAL", MPI_2REAL, MPI_REAL, 0, MPI_REAL, prim_size(MPI_REAL), 2 * prim_size(MPI_REAL));
  if (offered("MPI_2DOUBLE_PRECISION", MPI_2DOUBLE_PRECISION) && MPI_DOUBLE_PRECISION != MPI_DATATYPE_NULL)
    pair("MPI_2DOUBLE_PRECISION", MPI_2DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, 0, MPI_DOUBLE_PRECISION,
         prim_size(MPI_DOUBLE_PRECISION), 2 * prim_size(MPI_DOUBLE_PRECISION));
  /* Optional Fortran types: offered when the Fortran compiler of the MPI build had them. */
#ifdef MPI_INTEGER1
  basic("MPI_INTEGER1", MPI_INTEGER1);
#endif
#ifdef MPI_INTEGER2
  basic("MPI_INTEGER2", MPI_INTEGER2);
#endif
#ifdef MPI_INTEGER4
  basic("MPI_INTEGER4", MPI_INTEGER4);
#endif
#ifdef MPI_INTEGER8
  basic("MPI_INTEGER8", MPI_INTEGER8);
#endif
#ifdef MPI_INTEGER16
  basic("MPI_INTEGER16", MPI_INTEGER16);
#endif
#ifdef MPI_REAL2
  basic("MPI_REAL2", MPI_REAL2);
#endif
#ifdef MPI_REAL4
  basic("MPI_REAL4", MPI_REAL4);
#endif
#ifdef MPI_REAL8
  basic("MPI_REAL8", MPI_REAL8);
#endif
#ifdef MPI_REAL16
  basic("MPI_REAL16", MPI_REAL16);
#endif
#ifdef MPI_COMPLEX8
  basic("MPI_COMPLEX8", MPI_COMPLEX8);
#endif
#ifdef MPI_COMPLEX16
  basic("MPI_COMPLEX16", MPI_COMPLEX16);
#endif
#ifdef MPI_COMPLEX32
  basic("MPI_COMPLEX32", MPI_COMPLEX32);
#endif
}

static void commit_case(tcase_t* c, MPI_Datatype t) {
  MPI_Type_commit(&t);
  c->type = t;
}

static void derived_types(void) {
  MPI_Datatype t, inner;
  tcase_t* c;

  /* Contiguous: three doubles, no gaps. */
  c = new_case("contiguous(3 x MPI_DOUBLE)", MPI_DATATYPE_NULL, 1, 3 * sizeof(double));
  MPI_Type_contiguous(3, MPI_DOUBLE, &t);
  commit_case(c, t);
  for (int i = 0; i < 3; i++) add_field(c, MPI_DOUBLE, i * (MPI_Aint)sizeof(double));

  /* Vector: 3 blocks of 2 ints, stride 3 ints: a one-int gap after each block but the last. */
  c = new_case("vector(3, 2, stride 3, MPI_INT)", MPI_DATATYPE_NULL, 1, 8 * sizeof(int));
  MPI_Type_vector(3, 2, 3, MPI_INT, &t);
  commit_case(c, t);
  for (int b = 0; b < 3; b++)
    for (int k = 0; k < 2; k++) add_field(c, MPI_INT, (3 * b + k) * (MPI_Aint)sizeof(int));

  /* Indexed out of order: two ints at int 3, then one at int 0 (signature order is not memory
   * order), a gap at int 1..2. */
  {
    int lens[2] = {2, 1}, disps[2] = {3, 0};
    c = new_case("indexed({2 at 3, 1 at 0}, MPI_INT)", MPI_DATATYPE_NULL, 1, 5 * sizeof(int));
    MPI_Type_indexed(2, lens, disps, MPI_INT, &t);
    commit_case(c, t);
    add_field(c, MPI_INT, 3 * sizeof(int));
    add_field(c, MPI_INT, 4 * sizeof(int));
    add_field(c, MPI_INT, 0);
  }

  /* Two ints swapped: gap-free, size == extent == true extent, yet not in signature order.
   * A library that called this contiguous from its sizes alone would swap them. */
  {
    int lens[2] = {1, 1};
    MPI_Aint disps[2] = {sizeof(int), 0};
    MPI_Datatype types[2] = {MPI_INT, MPI_INT};
    c = new_case("struct(int at 4, int at 0)", MPI_DATATYPE_NULL, 1, 2 * sizeof(int));
    MPI_Type_create_struct(2, lens, disps, types, &t);
    commit_case(c, t);
    add_field(c, MPI_INT, sizeof(int));
    add_field(c, MPI_INT, 0);
  }

  /* Struct with padding, like struct { char c; double d; short s; }: gaps after c and s. */
  {
    typedef struct { char c; double d; short s; } padded_t;
    int lens[3] = {1, 1, 1};
    MPI_Aint disps[3] = {offsetof(padded_t, c), offsetof(padded_t, d), offsetof(padded_t, s)};
    MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_SHORT};
    c = new_case("struct(char, double, short) padded", MPI_DATATYPE_NULL, 1, sizeof(padded_t));
    MPI_Type_create_struct(3, lens, disps, types, &inner);
    MPI_Type_create_resized(inner, 0, sizeof(padded_t), &t);
    MPI_Type_free(&inner);
    commit_case(c, t);
    for (int f = 0; f < 3; f++) add_field(c, types[f], disps[f]);
  }

  /* Resized: an int in an 8-byte extent (a gap after each). */
  c = new_case("resized(MPI_INT, extent 8)", MPI_DATATYPE_NULL, 1, 8);
  MPI_Type_create_resized(MPI_INT, 0, 8, &t);
  commit_case(c, t);
  add_field(c, MPI_INT, 0);

  /* Resized with the data after the lower bound: {gap, gap, int, gap} per element. */
  {
    int one = 1;
    MPI_Aint disp = 2 * sizeof(int);
    c = new_case("resized(hindexed int at 8, extent 16)", MPI_DATATYPE_NULL, 1, 4 * sizeof(int));
    MPI_Type_create_hindexed(1, &one, &disp, MPI_INT, &inner);
    MPI_Type_create_resized(inner, 0, 4 * sizeof(int), &t);
    MPI_Type_free(&inner);
    commit_case(c, t);
    add_field(c, MPI_INT, 2 * sizeof(int));
  }

  /* Derived from a padded named type: a dup, and a contiguous pair of them. */
  {
    typedef struct { double d; int i; } di_t;
    c = new_case("dup(MPI_DOUBLE_INT)", MPI_DATATYPE_NULL, 1, sizeof(di_t));
    MPI_Type_dup(MPI_DOUBLE_INT, &t);
    commit_case(c, t);
    add_field(c, MPI_DOUBLE, offsetof(di_t, d));
    add_field(c, MPI_INT, offsetof(di_t, i));

    c = new_case("contiguous(2 x MPI_DOUBLE_INT)", MPI_DATATYPE_NULL, 1, 2 * sizeof(di_t));
    MPI_Type_contiguous(2, MPI_DOUBLE_INT, &t);
    commit_case(c, t);
    for (int k = 0; k < 2; k++) {
      add_field(c, MPI_DOUBLE, k * (MPI_Aint)sizeof(di_t) + offsetof(di_t, d));
      add_field(c, MPI_INT, k * (MPI_Aint)sizeof(di_t) + offsetof(di_t, i));
    }
  }

  /* Hvector of a padded named type: 2 blocks of one MPI_SHORT_INT, 24 bytes apart. */
  {
    typedef struct { short s; int i; } si_t;
    c = new_case("hvector(2, 1, 24 bytes, MPI_SHORT_INT)", MPI_DATATYPE_NULL, 1, 24 + sizeof(si_t));
    MPI_Type_create_hvector(2, 1, 24, MPI_SHORT_INT, &t);
    commit_case(c, t);
    for (int k = 0; k < 2; k++) {
      add_field(c, MPI_SHORT, k * 24 + offsetof(si_t, s));
      add_field(c, MPI_INT, k * 24 + offsetof(si_t, i));
    }
  }

  /* Zero-size: no data at all, whatever the count. */
  c = new_case("contiguous(0 x MPI_INT)", MPI_DATATYPE_NULL, 1, 0);
  MPI_Type_contiguous(0, MPI_INT, &t);
  commit_case(c, t);
}

/* ---- Layout arithmetic ------------------------------------------------------------------ */

/* One side of a call: `count` elements of a case's type (or of its packed twin). */
typedef struct {
  const tcase_t* c;
  bool packed;
  int count;
} side_t;

static MPI_Datatype side_type(side_t s) { return s.packed ? s.c->packed : s.c->type; }
static MPI_Aint side_extent(side_t s) { return s.packed ? s.c->packed_extent : s.c->extent; }
static size_t side_span(side_t s) { return (size_t)(side_extent(s) * s.count); }

/* Calls visit(offset, k) for every data byte of the side, k its index in signature order. */
typedef void (*visit_fn)(unsigned char* buf, size_t offset, size_t k, void* arg);
static void for_each_data_byte(side_t s, unsigned char* buf, visit_fn visit, void* arg) {
  size_t k = 0;
  MPI_Aint at_packed = 0;
  for (int e = 0; e < s.count; e++) {
    for (int f = 0; f < s.c->nfields; f++) {
      const int n = prim_size(s.c->fields[f].prim);
      const MPI_Aint at = s.packed ? at_packed : e * s.c->extent + s.c->fields[f].offset;
      for (int b = 0; b < n; b++) visit(buf, (size_t)(at + b), k++, arg);
      at_packed += n;
    }
  }
}

static unsigned char message_byte(int from, int to, size_t k, int seed) {
  return (unsigned char)(k * 131 + (size_t)from * 29 + (size_t)to * 17 + (size_t)seed * 7 + 1);
}

typedef struct {
  int from, to, seed;
  unsigned char* mask;  /* if not null: marks the data bytes */
} fill_t;

static void put_byte(unsigned char* buf, size_t off, size_t k, void* arg) {
  const fill_t* f = arg;
  buf[off] = message_byte(f->from, f->to, k, f->seed);
  if (f->mask) f->mask[off] = 1;
}

/* Writes the message from `from` to `to` into the data bytes of `s` at `buf`. */
static void put_message(side_t s, unsigned char* buf, unsigned char* mask, int from, int to, int seed) {
  fill_t f = {from, to, seed, mask};
  for_each_data_byte(s, buf, put_byte, &f);
}

/* ---- Running a case through MPI_X or PMPI_X --------------------------------------------- */

typedef int (*bcast_fn)(void*, int, MPI_Datatype, int, MPI_Comm);
typedef int (*alltoall_fn)(const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm);

/* The non-blocking calls, completed at once by the completion calls in turn. */
static int completions = 0;

static int ibcast_completed(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  MPI_Request request;
  const int rc = MPI_Ibcast(buf, count, type, root, comm, &request);
  return rc != MPI_SUCCESS ? rc : complete_request(&request, completions++);
}

static int ialltoall_completed(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                               MPI_Datatype rtype, MPI_Comm comm) {
  MPI_Request request;
  const int rc = MPI_Ialltoall(send, scount, stype, recv, rcount, rtype, comm, &request);
  return rc != MPI_SUCCESS ? rc : complete_request(&request, completions++);
}

/* Persistent: initialized, started twice (a bcast and an alltoall out of place give the same
 * result again), each activation completed by the next completion call, freed. MPICH 4.0.2's
 * own MPI_Testall fails on its persistent collective requests (for the calls mcorecoll hands
 * it): MPI_Waitall then. */
static int next_persistent_completion(void) {
  int method = completions++;
#if defined(MPICH_VERSION)
  if (method % kCompletionMethods == 3) method = 2;
#endif
  return method;
}

static int run_persistent(MPI_Request* request, int activations) {
  int rc = MPI_SUCCESS;
  for (int a = 0; a < activations && rc == MPI_SUCCESS; a++) {
    rc = MPI_Start(request);
    if (rc == MPI_SUCCESS) rc = complete_request(request, next_persistent_completion());
  }
  const int freed = MPI_Request_free(request);
  return rc != MPI_SUCCESS ? rc : freed;
}

static int pbcast_completed(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  MPI_Request request;
  const int rc = PERSISTENT_BCAST_INIT(buf, count, type, root, comm, MPI_INFO_NULL, &request);
  return rc != MPI_SUCCESS ? rc : run_persistent(&request, 2);
}

static int palltoall_completed(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                               MPI_Datatype rtype, MPI_Comm comm) {
  MPI_Request request;
  const int rc = PERSISTENT_ALLTOALL_INIT(send, scount, stype, recv, rcount, rtype, comm, MPI_INFO_NULL, &request);
  return rc != MPI_SUCCESS ? rc : run_persistent(&request, send == MPI_IN_PLACE ? 1 : 2);
}

static bcast_fn bcast_under_test = MPI_Bcast;
static alltoall_fn alltoall_under_test = MPI_Alltoall;

/* Problems a run found on this rank; 0 when right. `what` describes the first. */
typedef struct {
  long bad;
  char what[256];
} verdict_t;

static void note(verdict_t* v, const char* fmt, ...) {
  if (v->bad++ == 0) {
    va_list args;
    va_start(args, fmt);
    vsnprintf(v->what, sizeof(v->what), fmt, args);
    va_end(args);
  }
}

/* Compares what a call left in a buffer with what it must hold: `expect` (the message in the
 * data bytes marked by `mask`, kUntouched or the sender's own bytes everywhere else). */
static void compare(const unsigned char* got, const unsigned char* expect, const unsigned char* mask,
                    size_t bytes, verdict_t* v, const char* label) {
  long data = 0, other = 0, first_data = -1, first_other = -1;
  for (size_t i = 0; i < bytes; i++) {
    if (got[i] == expect[i]) continue;
    if (mask[i]) {
      if (data++ == 0) first_data = (long)i;
    } else if (other++ == 0) {
      first_other = (long)i;
    }
  }
  if (data) note(v, "%s: %ld data bytes wrong, first at offset %ld", label, data, first_data);
  if (other) note(v, "%s: %ld gap or guard bytes written, first at offset %ld", label, other, first_other);
}

/* A buffer for a call, with slack after it: a defective PMPI_X (Open MPI 4.1.4's Bruck alltoall
 * with padded types, at 13 ranks and more) writes past the buffer it was given, and must not
 * wreck the heap before the test can tell. */
static unsigned char* call_buffer(size_t bytes) { return malloc(2 * bytes + 65536); }

static void run_bcast(bcast_fn fn, MPI_Comm comm, side_t root_side, side_t leaf_side, int root,
                      int seed, verdict_t* v) {
  int me;
  MPI_Comm_rank(comm, &me);
  const side_t s = me == root ? root_side : leaf_side;
  const size_t bytes = side_span(s) + kGuard;
  unsigned char* buf = call_buffer(bytes);
  unsigned char* expect = malloc(bytes);
  unsigned char* mask = calloc(bytes, 1);
  /* The root's gaps hold kRootGap: a receiver that got them would show it. */
  memset(expect, me == root ? kRootGap : kUntouched, bytes);
  put_message(s, expect, mask, root, 0, seed);
  if (me == root) memcpy(buf, expect, bytes);
  else memset(buf, kUntouched, bytes);
  if (fn(buf, s.count, side_type(s), root, comm) != MPI_SUCCESS) note(v, "bcast: error code");
  compare(buf, expect, mask, bytes, v, me == root ? "bcast, the root's buffer" : "bcast");
  free(buf);
  free(expect);
  free(mask);
}

/* Blocks of `count` elements per peer; in place when send_side is NULL. */
static void run_alltoall(alltoall_fn fn, MPI_Comm comm, const side_t* send_side, side_t recv_side,
                         int seed, verdict_t* v) {
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  const size_t in_block = side_span(recv_side), in_bytes = in_block * n + kGuard;
  unsigned char* recv = call_buffer(in_bytes);
  unsigned char* expect = malloc(in_bytes);
  unsigned char* mask = calloc(in_bytes, 1);
  unsigned char *send = NULL, *sent = NULL;
  size_t out_bytes = 0;
  memset(recv, kUntouched, in_bytes);
  if (send_side) {
    const size_t out_block = side_span(*send_side);
    out_bytes = out_block * n + kGuard;
    send = call_buffer(out_bytes);
    memset(send, kRootGap, out_bytes);
    for (int d = 0; d < n; d++) put_message(*send_side, send + d * out_block, NULL, me, d, seed);
    sent = malloc(out_bytes);
    memcpy(sent, send, out_bytes);
  } else {
    for (int d = 0; d < n; d++) put_message(recv_side, recv + d * in_block, NULL, me, d, seed);
  }
  memset(expect, kUntouched, in_bytes);
  for (int s = 0; s < n; s++) put_message(recv_side, expect + s * in_block, mask, s, me, seed);
  const int rc = send_side ? fn(send, send_side->count, side_type(*send_side), recv, recv_side.count,
                                side_type(recv_side), comm)
                           : fn(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv, recv_side.count, side_type(recv_side), comm);
  if (rc != MPI_SUCCESS) note(v, "alltoall: error code");
  compare(recv, expect, mask, in_bytes, v, "alltoall receive buffer");
  if (send && memcmp(send, sent, out_bytes) != 0) note(v, "alltoall: the send buffer changed");
  free(recv);
  free(expect);
  free(mask);
  free(send);
  free(sent);
}

/* ---- The matrix ------------------------------------------------------------------------- */

static int thresholds[32];
static int nthresholds = 0;

static void read_thresholds(void) {
  const char* env = getenv("TEST_THRESHOLDS");
  char buf[512];
  snprintf(buf, sizeof(buf), "%s", env ? env : "120,1024,3064,4096,8192,16384");
  for (char* tok = strtok(buf, ","); tok && nthresholds < 32; tok = strtok(NULL, ","))
    thresholds[nthresholds++] = atoi(tok);
}


/* Runs one case through PMPI first, on `*oracle` (a duplicate of `comm`, so that what a
 * failed call leaves behind cannot reach the calls under test); if the MPI library itself is
 * wrong on any rank, says so, replaces the oracle communicator and skips the case; else runs
 * it through MPI_X on `comm` and checks it. */
typedef void (*case_fn)(void* fn, MPI_Comm comm, verdict_t* v, const void* arg);

enum { kMaxPoisoned = 1024 };
static MPI_Comm poisoned[kMaxPoisoned];
static int npoisoned = 0;

static void run_case(MPI_Comm comm, MPI_Comm* oracle, case_fn body, void* pmpi, void* mpi, const void* arg,
                     const char* description) {
  verdict_t v = {0, ""};
  body(pmpi, *oracle, &v, arg);
  long any = 0, mine = v.bad;
  PMPI_Allreduce(&mine, &any, 1, MPI_LONG, MPI_MAX, comm);
  if (any) {
    int me;
    MPI_Comm_rank(comm, &me);
    if (me == 0 && pmpi_defects < 5)
      printf("test_datatypes: skipped, the MPI library's own call is wrong: %s: %s\n", description, v.what);
    /* Kept, not freed, until the end: a freed context id can be reused at once, and what the
     * failed call left in flight would then reach the new communicator. */
    if (npoisoned < kMaxPoisoned) poisoned[npoisoned++] = *oracle;
    pmpi_defects++;
    PMPI_Comm_dup(comm, oracle);
    return;
  }
  verdict_t w = {0, ""};
  body(mpi, comm, &w, arg);
  checked_calls++;
  CHECK(w.bad == 0, "%s: %s", description, w.what);
}

typedef struct {
  side_t root_side, leaf_side;
  int root, seed;
} bcast_case_t;

static void bcast_body(void* fn, MPI_Comm comm, verdict_t* v, const void* arg) {
  const bcast_case_t* b = arg;
  run_bcast((bcast_fn)fn, comm, b->root_side, b->leaf_side, b->root, b->seed, v);
}

typedef struct {
  side_t send_side, recv_side;
  bool in_place;
  int seed;
} alltoall_case_t;

static void alltoall_body(void* fn, MPI_Comm comm, verdict_t* v, const void* arg) {
  const alltoall_case_t* a = arg;
  run_alltoall((alltoall_fn)fn, comm, a->in_place ? NULL : &a->send_side, a->recv_side, a->seed, v);
}

/* A type whose one element is not its size bytes in signature order, or a derived one. */
static bool has_gaps_or_order(const tcase_t* c) {
  if (c->derived || c->extent != c->size) return true;
  for (int f = 0; f < c->nfields; f++)
    if (c->fields[f].offset != (f ? c->fields[f - 1].offset + prim_size(c->fields[f - 1].prim) : 0)) return true;
  return c->nfields > 1;
}

/* Counts 0, 1, 2, 3, 17 and, for every threshold, the count whose bytes are just above it;
 * thresholds above 64 KiB only for the types whose layout is not plain (the rest would spend
 * the run's time copying megabytes the smaller counts already check). */
static int counts_for(const tcase_t* c, int* counts) {
  int n = 0;
  const int base[] = {0, 1, 2, 3, 17};
  for (int i = 0; i < 5; i++) counts[n++] = base[i];
  if (c->size > 0)
    for (int t = 0; t < nthresholds && n < kMaxCounts; t++)
      if (thresholds[t] <= 65536 || has_gaps_or_order(c)) counts[n++] = thresholds[t] / c->size + 1;
  return n;
}

static void matrix(MPI_Comm comm, bool gaps_only) {
  int n;
  MPI_Comm_size(comm, &n);
  MPI_Comm oracle;
  PMPI_Comm_dup(comm, &oracle);
  int seed = 0;
  for (int i = 0; i < ncases; i++) {
    const tcase_t* c = &cases[i];
    if (gaps_only && !has_gaps_or_order(c)) continue;
    int counts[kMaxCounts];
    const int ncounts = counts_for(c, counts);
    for (int ci = 0; ci < ncounts; ci++) {
      const int count = counts[ci];
      /* Each side its own type, or one side the packed struct of the same signature. */
      for (int mix = 0; mix < 3; mix++) {
        const side_t typed = {c, false, count}, packed = {c, true, count};
        const side_t first = mix == 2 ? packed : typed, second = mix == 1 ? packed : typed;
        char description[256];
        for (int root = 0; root < n; root++) {
          const bcast_case_t b = {first, second, root, ++seed};
          snprintf(description, sizeof(description), "bcast %.64s%s count %d root %d", c->name,
                   mix == 0 ? "" : mix == 1 ? " (leaves: packed struct)" : " (root: packed struct)", count, root);
          run_case(comm, &oracle, bcast_body, (void*)PMPI_Bcast, (void*)bcast_under_test, &b, description);
        }
        const alltoall_case_t a = {first, second, false, ++seed};
        snprintf(description, sizeof(description), "alltoall %.64s%s count %d", c->name,
                 mix == 0 ? "" : mix == 1 ? " (receive: packed struct)" : " (send: packed struct)", count);
        run_case(comm, &oracle, alltoall_body, (void*)PMPI_Alltoall, (void*)alltoall_under_test, &a, description);
        if (mix != 1) {
          const alltoall_case_t p = {first, first, true, ++seed};
          snprintf(description, sizeof(description), "alltoall in place %.64s%s count %d", c->name,
                   mix == 0 ? "" : " (packed struct)", count);
          run_case(comm, &oracle, alltoall_body, (void*)PMPI_Alltoall, (void*)alltoall_under_test, &p, description);
        }
      }
    }
  }
  PMPI_Comm_free(&oracle);
}

/* The layout written here must be the MPI library's: otherwise the test's oracle is wrong. */
static void check_layouts(void) {
  for (int i = 0; i < ncases; i++) {
    tcase_t* c = &cases[i];
    make_packed(c);
    MPI_Aint lb, extent;
    int size;
    MPI_Type_get_extent(c->type, &lb, &extent);
    MPI_Type_size(c->type, &size);
    CHECK(extent == c->extent && size == c->size,
          "%s: the test's layout (extent %ld, size %d) is not the MPI library's (extent %ld, size %d)",
          c->name, (long)c->extent, c->size, (long)extent, size);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  bool gaps_only = false;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "gaps") == 0) gaps_only = true;
    if (strcmp(argv[i], "nonblocking") == 0) {
      bcast_under_test = ibcast_completed;
      alltoall_under_test = ialltoall_completed;
    }
    if (strcmp(argv[i], "persistent") == 0) {
      bcast_under_test = pbcast_completed;
      alltoall_under_test = palltoall_completed;
    }
  }
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  read_thresholds();
  named_types();
  derived_types();
  check_layouts();

  /* The world, and a reordered duplicate (node ranks not in communicator order; with "gaps",
   * only that one). Errors
   * return, so that a case the MPI library itself rejects (MPICH 4.0.2 truncates in-place
   * alltoalls of padded pair types above 8 KiB per block) is told apart and skipped. */
  MPI_Comm reversed;
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(reversed, MPI_ERRORS_RETURN);
  /* A communicator's first blocking collective sets it up for mcorecoll's shared memory; the
   * non-blocking calls under test may not (they must not wait for other ranks). */
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Barrier(reversed);
  if (!gaps_only) matrix(MPI_COMM_WORLD, false);
  matrix(reversed, gaps_only);
  MPI_Comm_free(&reversed);
  for (int i = 0; i < npoisoned; i++) PMPI_Comm_free(&poisoned[i]);

  if (rank == 0) {
    printf("test_datatypes: %d types (%d named types not offered by this MPI:%s), %ld cases checked, "
           "%d skipped for the MPI library's own defects\n",
           ncases, not_offered, not_offered_names, checked_calls, pmpi_defects);
  }
  for (int i = 0; i < ncases; i++) {
    if (cases[i].derived) MPI_Type_free(&cases[i].type);
    MPI_Type_free(&cases[i].packed);
  }
  return check_finish("test_datatypes");
}
