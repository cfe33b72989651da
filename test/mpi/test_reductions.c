/* The value matrix of MPI_Allreduce, MPI_Reduce, MPI_Scan, MPI_Exscan and MPI_Allgather: every
 * predefined op on every predefined type the standard allows it for (integers of every width,
 * floating point with long double, complex, bool, byte, the pair types with MAXLOC/MINLOC),
 * derived types of one predefined type (contiguous, strided with gaps, resized), user ops commutative and not;
 * counts 0, 1, 2, 3, 17 and one of several rounds (sliced); every root; in place.
 *
 * Every rank computes every rank's contribution itself (a function of rank, element and type)
 * and so the reference: the serial fold in rank order, c0 op (c1 op (... op c(n-1))), through
 * MPI_Reduce_local. In `exact` mode (the library's path forced) the result must equal it bit
 * for bit on every rank: combining in any other order fails the inexact floating-point sums
 * and the non-commutative op (a product of 2x2 matrices). In `loose` mode (PMPI, or auto)
 * floating-point results may differ in the last bits (the MPI library's own order): relative
 * 1e-4. Every byte of a receive buffer that is not data (gaps, the guard after it) must keep
 * its marker, and send buffers must not change. Under pretend nodes (MCORECOLL_TEST_NODE_SIZE)
 * the reference folds each node's ranks, then the nodes in order (reference()). A node of more
 * ranks than MCORECOLL_REDUCE_FLAT_MAX folds a contribution of one record line over its tree of
 * consecutive ranks (or on any node where MCORECOLL_ALLREDUCE and MCORECOLL_REDUCE force `tree`;
 * never where they force `lines`): the reference follows that bracketing (fold_node()), and the scans
 * their binary indexed tree's (scan_reference()). The non-blocking
 * and persistent forms are checked bitwise across nodes too where they take the library's path
 * (Open MPI: its progress hook), loosely elsewhere (the MPI library's order).
 *
 * Usage: test_reductions exact|loose */
#include <complex.h>
#include <math.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "mpi_defects.h"
#include "complete.h"
#include "persistent.h"

enum { kGuard = 64, kLarge = 12289 };
static const unsigned char kMarker = 0xA5;
static int exact = 0, me = 0, nranks = 0;
static int trace = 0; /* TEST_TRACE=1: each case named before it runs */
/* The nodes' first ranks, node_first[nodes] = nranks: pretend nodes of MCORECOLL_TEST_NODE_SIZE
 * consecutive ranks, or the hosts the ranks run on (MPI_Get_processor_name), one node if the
 * hosts' ranks are not consecutive (mcorecoll folds commutative ops by node there, not in rank
 * order, and hands the others to the MPI library). */
enum { kMaxNodes = 256 };
static int node_first[kMaxNodes + 1];
static int nodes = 1;
static int value_round = 0; /* other values for each start of a persistent request */

typedef enum { K_INT, K_UINT, K_FLOAT, K_COMPLEX, K_BOOL, K_BYTE, K_PAIR } kind_t;
typedef struct {
  const char* name;
  MPI_Datatype type;
  kind_t kind;
  size_t width;      /* bytes of the value (for a pair: the value part) */
  size_t pair_size;  /* pairs: the C struct's size */
  size_t index_at;   /* pairs: offset of the int index */
  size_t index_width;
} type_t;

#define PAIR(T, I) sizeof(T), sizeof(struct { T v; I i; }), offsetof(struct { T v; I i; }, i), sizeof(I)
static type_t types[] = {
    {"MPI_SIGNED_CHAR", MPI_SIGNED_CHAR, K_INT, 1, 0, 0, 0},
    {"MPI_UNSIGNED_CHAR", MPI_UNSIGNED_CHAR, K_UINT, 1, 0, 0, 0},
    {"MPI_SHORT", MPI_SHORT, K_INT, sizeof(short), 0, 0, 0},
    {"MPI_UNSIGNED_SHORT", MPI_UNSIGNED_SHORT, K_UINT, sizeof(short), 0, 0, 0},
    {"MPI_INT", MPI_INT, K_INT, sizeof(int), 0, 0, 0},
    {"MPI_UNSIGNED", MPI_UNSIGNED, K_UINT, sizeof(int), 0, 0, 0},
    {"MPI_LONG", MPI_LONG, K_INT, sizeof(long), 0, 0, 0},
    {"MPI_UNSIGNED_LONG", MPI_UNSIGNED_LONG, K_UINT, sizeof(long), 0, 0, 0},
    {"MPI_LONG_LONG", MPI_LONG_LONG, K_INT, sizeof(long long), 0, 0, 0},
    {"MPI_UNSIGNED_LONG_LONG", MPI_UNSIGNED_LONG_LONG, K_UINT, sizeof(long long), 0, 0, 0},
    {"MPI_INT8_T", MPI_INT8_T, K_INT, 1, 0, 0, 0},
    {"MPI_INT16_T", MPI_INT16_T, K_INT, 2, 0, 0, 0},
    {"MPI_INT32_T", MPI_INT32_T, K_INT, 4, 0, 0, 0},
    {"MPI_INT64_T", MPI_INT64_T, K_INT, 8, 0, 0, 0},
    {"MPI_UINT8_T", MPI_UINT8_T, K_UINT, 1, 0, 0, 0},
    {"MPI_UINT16_T", MPI_UINT16_T, K_UINT, 2, 0, 0, 0},
    {"MPI_UINT32_T", MPI_UINT32_T, K_UINT, 4, 0, 0, 0},
    {"MPI_UINT64_T", MPI_UINT64_T, K_UINT, 8, 0, 0, 0},
    {"MPI_AINT", MPI_AINT, K_INT, sizeof(MPI_Aint), 0, 0, 0},
    {"MPI_FLOAT", MPI_FLOAT, K_FLOAT, sizeof(float), 0, 0, 0},
    {"MPI_DOUBLE", MPI_DOUBLE, K_FLOAT, sizeof(double), 0, 0, 0},
    {"MPI_LONG_DOUBLE", MPI_LONG_DOUBLE, K_FLOAT, sizeof(long double), 0, 0, 0},
    {"MPI_C_FLOAT_COMPLEX", MPI_C_FLOAT_COMPLEX, K_COMPLEX, sizeof(float complex), 0, 0, 0},
    {"MPI_C_DOUBLE_COMPLEX", MPI_C_DOUBLE_COMPLEX, K_COMPLEX, sizeof(double complex), 0, 0, 0},
    {"MPI_C_BOOL", MPI_C_BOOL, K_BOOL, sizeof(bool), 0, 0, 0},
    {"MPI_BYTE", MPI_BYTE, K_BYTE, 1, 0, 0, 0},
    {"MPI_FLOAT_INT", MPI_FLOAT_INT, K_PAIR, PAIR(float, int)},
    {"MPI_DOUBLE_INT", MPI_DOUBLE_INT, K_PAIR, PAIR(double, int)},
    {"MPI_LONG_INT", MPI_LONG_INT, K_PAIR, PAIR(long, int)},
    {"MPI_2INT", MPI_2INT, K_PAIR, PAIR(int, int)},
    {"MPI_SHORT_INT", MPI_SHORT_INT, K_PAIR, PAIR(short, int)},
    {"MPI_LONG_DOUBLE_INT", MPI_LONG_DOUBLE_INT, K_PAIR, PAIR(long double, int)},
};
enum { kTypes = sizeof(types) / sizeof(types[0]) };

/* ---- values: element i of rank r, written into one element's bytes ---- */

static uint64_t mix(uint64_t x) {
  x ^= x >> 33, x *= 0xff51afd7ed558ccdull, x ^= x >> 33, x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

static void put_int(void* at, size_t width, int64_t v) {
  switch (width) {
    case 1: { int8_t x = (int8_t)v; memcpy(at, &x, 1); break; }
    case 2: { int16_t x = (int16_t)v; memcpy(at, &x, 2); break; }
    case 4: { int32_t x = (int32_t)v; memcpy(at, &x, 4); break; }
    default: memcpy(at, &v, 8);
  }
}

/* The largest one-byte value a rank gives, at most `most`, so that the sum of every rank's
 * stays below `limit`. */
static int64_t byte_bound(int64_t limit, int64_t most) {
  const int64_t share = limit / (nranks > 0 ? nranks : 1);
  return share < most ? share : most;
}

/* Small values for PROD (so that products stay inside every width), bits for the rest. */
static void value(const type_t* t, MPI_Op op, int r, long i, void* at) {
  const uint64_t h = mix(((uint64_t)r << 40) ^ (uint64_t)i ^ ((uint64_t)(t - types) << 56) ^ ((uint64_t)value_round << 32));
  const int small = op == MPI_PROD;
  switch (t->kind) {
    /* One-byte sums stay inside the type at any number of ranks (at most 20 and 39 a rank,
     * less from 7 ranks on): Open MPI 4.1.4's own MPI_SUM on 8-bit integers saturates in its
     * vector loops and wraps in the scalar tail (doc/mpi-defects.md). */
    case K_INT: put_int(at, t->width, small ? (int64_t)(h % 3) - 1 : t->width == 1 ? (int64_t)(h % (2 * byte_bound(127, 20) + 1)) - byte_bound(127, 20) : (int64_t)(h % 200) - 100); break;
    case K_UINT: put_int(at, t->width, small ? (int64_t)(h % 3) : t->width == 1 ? (int64_t)(h % (byte_bound(255, 39) + 1)) : (int64_t)(h % 250)); break;
    case K_BYTE: { unsigned char x = (unsigned char)h; memcpy(at, &x, 1); break; }
    case K_BOOL: { bool x = (h & 3) != 0; memcpy(at, &x, sizeof x); break; }
    case K_FLOAT: {
      /* Inexact sums: a rounding in every addition, in an order that shows. */
      const double d = small ? 1.0 + (double)(h % 7) / 64.0 : ((double)(h % 100000) / 7.0 + 0.1) * (r % 2 ? 1e6 : 1e-3);
      if (t->width == sizeof(float)) { float x = (float)d; memcpy(at, &x, sizeof x); }
      else if (t->width == sizeof(double)) memcpy(at, &d, sizeof d);
      else { long double x = (long double)d / 3.0L; memcpy(at, &x, sizeof x); }
      break;
    }
    case K_COMPLEX: {
      const double re = small ? 1.0 + (double)(h % 5) / 32.0 : (double)(h % 1000) / 3.0;
      const double im = small ? (double)(h % 3) / 16.0 : (double)((h >> 20) % 1000) / 7.0;
      if (t->width == sizeof(float complex)) { float complex x = (float)re + (float)im * I; memcpy(at, &x, sizeof x); }
      else { double complex x = re + im * I; memcpy(at, &x, sizeof x); }
      break;
    }
    case K_PAIR: {
      /* Few distinct values, so that ties pick by the index. */
      const int64_t v = (int64_t)(h % 5);
      if (t->type == MPI_FLOAT_INT) { float x = (float)v; memcpy(at, &x, sizeof x); }
      else if (t->type == MPI_DOUBLE_INT) { double x = (double)v; memcpy(at, &x, sizeof x); }
      else if (t->type == MPI_LONG_DOUBLE_INT) { long double x = (long double)v; memcpy(at, &x, sizeof x); }
      else put_int(at, t->width, v);
      int index = (int)((h >> 8) % 7) + r;
      memcpy((char*)at + t->index_at, &index, sizeof index);
      break;
    }
  }
}

/* ---- the ops each kind allows ---- */

static MPI_Op arithmetic[] = {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX};
static MPI_Op integer_ops[] = {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX, MPI_BAND, MPI_BOR, MPI_BXOR, MPI_LAND, MPI_LOR, MPI_LXOR};
static MPI_Op complex_ops[] = {MPI_SUM, MPI_PROD};
static MPI_Op logical_ops[] = {MPI_LAND, MPI_LOR, MPI_LXOR};
static MPI_Op byte_ops[] = {MPI_BAND, MPI_BOR, MPI_BXOR};
static MPI_Op pair_ops[] = {MPI_MAXLOC, MPI_MINLOC};

static const char* op_name(MPI_Op op) {
  return op == MPI_SUM ? "SUM" : op == MPI_PROD ? "PROD" : op == MPI_MIN ? "MIN" : op == MPI_MAX ? "MAX"
       : op == MPI_BAND ? "BAND" : op == MPI_BOR ? "BOR" : op == MPI_BXOR ? "BXOR" : op == MPI_LAND ? "LAND"
       : op == MPI_LOR ? "LOR" : op == MPI_LXOR ? "LXOR" : op == MPI_MAXLOC ? "MAXLOC" : op == MPI_MINLOC ? "MINLOC"
       : "user";
}

/* ---- user ops: 2x2 matrices of uint32 (mod 2^32), product (not commutative) and sum ---- */

static void matrix_product(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  uint32_t* a = in;
  uint32_t* b = inout;
  for (int k = 0; k < *len; ++k, a += 4, b += 4) {
    const uint32_t c0 = a[0] * b[0] + a[1] * b[2], c1 = a[0] * b[1] + a[1] * b[3];
    const uint32_t c2 = a[2] * b[0] + a[3] * b[2], c3 = a[2] * b[1] + a[3] * b[3];
    b[0] = c0, b[1] = c1, b[2] = c2, b[3] = c3;
  }
}
static void matrix_sum(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  uint32_t* a = in;
  uint32_t* b = inout;
  for (int k = 0; k < *len * 4; ++k) b[k] += a[k];
}

/* ---- one case: a datatype over an element layout ---- */

struct layout;
static const struct layout* current_layout;  /* for layout_sum_fn */

typedef struct layout {
  const char* name;
  MPI_Datatype type;   /* what the call passes */
  const type_t* base;  /* the predefined type inside */
  int per_element;     /* base values per element of `type` */
  MPI_Aint extent;     /* of `type` */
  MPI_Aint stride;     /* bytes between the base values of one element */
  int floating;        /* results compared loosely outside exact mode */
} layout_t;

/* A user op over current_layout: adds its base values (doubles or ints) where they lie. */
static void layout_sum_fn(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  const layout_t* l = current_layout;
  for (int e = 0; e < *len; ++e)
    for (int j = 0; j < l->per_element; ++j) {
      const size_t at = (size_t)e * (size_t)l->extent + (size_t)j * (size_t)l->stride;
      if (l->base->type == MPI_DOUBLE) *(double*)((char*)inout + at) += *(double*)((char*)in + at);
      else *(int*)((char*)inout + at) += *(int*)((char*)in + at);
    }
}

/* Fills `count` elements of rank r's contribution into a buffer laid out as `l` (gaps marked). */
static void fill(const layout_t* l, MPI_Op op, int r, int count, char* buf) {
  for (int e = 0; e < count; ++e)
    for (int j = 0; j < l->per_element; ++j)
      value(l->base, op, r, (long)e * l->per_element + j, buf + e * l->extent + j * l->stride);
}

static size_t buffer_bytes(const layout_t* l, int count) { return (size_t)count * (size_t)l->extent + kGuard; }

/* The data bytes of one base value (pairs: the value and the index, not the padding). */
static int same_value(const type_t* t, const char* a, const char* b, int loose) {
  if (t->kind == K_PAIR)
    return memcmp(a, b, t->type == MPI_LONG_DOUBLE_INT ? 10 : t->width) == 0 &&
           memcmp(a + t->index_at, b + t->index_at, t->index_width) == 0;
  if (t->kind == K_BOOL) return (*(const bool*)a != 0) == (*(const bool*)b != 0);
  if (loose && (t->kind == K_FLOAT || t->kind == K_COMPLEX)) {
    const int parts = t->kind == K_COMPLEX ? 2 : 1;
    for (int p = 0; p < parts; ++p) {
      long double x, y;
      const size_t w = t->width / (size_t)parts;
      if (w == sizeof(float)) x = ((const float*)a)[p], y = ((const float*)b)[p];
      else if (w == sizeof(double)) x = ((const double*)a)[p], y = ((const double*)b)[p];
      else x = ((const long double*)a)[p], y = ((const long double*)b)[p];
      if (fabsl(x - y) > 1e-4L * fmaxl(fabsl(x), fabsl(y)) + 1e-30L) return 0;
    }
    return 1;
  }
  /* x87 long double: 10 bytes of value, the rest padding no one defines. */
  const size_t value_bytes = t->kind == K_FLOAT && t->width == sizeof(long double) ? 10 : t->width;
  return memcmp(a, b, value_bytes) == 0;
}

/* Checks a received buffer against the reference (data) and the marker (everything else). */
static void check_result(const layout_t* l, int count, const char* got, const char* want, const char* what) {
  const type_t* t = l->base;
  size_t bytes = buffer_bytes(l, count);
  unsigned char* is_data = calloc(bytes, 1);
  int bad = 0;
  for (int e = 0; e < count; ++e)
    for (int j = 0; j < l->per_element; ++j) {
      const size_t at = (size_t)e * (size_t)l->extent + (size_t)j * (size_t)l->stride;
      if (t->kind == K_PAIR) {
        memset(is_data + at, 1, t->width);
        memset(is_data + at + t->index_at, 1, t->index_width);
      } else {
        memset(is_data + at, 1, t->width);
      }
      if (!same_value(t, got + at, want + at, !exact && l->floating) && bad++ == 0)
        CHECK(0, "%s: element %d value %d differs from the rank-order reference", what, e, j);
    }
  for (size_t b = 0; b < bytes; ++b)
    if (!is_data[b] && (unsigned char)got[b] != kMarker && bad++ == 0)
      CHECK(0, "%s: byte %zu (not data) was written", what, b);
  free(is_data);
}

/* Ranks first..last folded from the last: c_first op (... op c_last), into `out`. */
static void fold_ranks(const layout_t* l, MPI_Op op, int count, int first, int last, char* out, char* c) {
  const size_t bytes = buffer_bytes(l, count);
  memset(out, kMarker, bytes);
  fill(l, op, last, count, out);
  for (int r = last - 1; r >= first; --r) {
    memset(c, kMarker, bytes);
    fill(l, op, r, count, c);
    if (count) MPI_Reduce_local(c, out, count, l->type, op);
  }
}

/* The small reductions' tree (reduction/reduce_shm.hpp), as doc/design/reductions.md gives it:
 * on a node of more than `flat_max` ranks, a contribution of at most kLineData bytes of image
 * is folded over groups of `radix` consecutive ranks, then groups of `radix` groups, and so
 * on; each group's parts in rank order, p0 op (p1 op (...)). The library's defaults unless
 * the run sets them. */
enum { kLineData = 248 };
static int flat_max = 16, radix = 4;

/* The image of `count` elements: the last element's data end after count - 1 extents. */
static size_t image_bytes(const layout_t* l, int count) {
  MPI_Aint true_lb = 0, true_extent = 0;
  MPI_Type_get_true_extent(l->type, &true_lb, &true_extent);
  return count == 0 ? 0 : (size_t)(count - 1) * (size_t)l->extent + (size_t)(true_lb + true_extent);
}

/* Node ranks [r, min(r + span, n)) of the node starting at rank `base`, over the tree. */
static void tree_partial(const layout_t* l, MPI_Op op, int count, int base, int r, int span, int n, char* out) {
  const size_t bytes = buffer_bytes(l, count);
  if (span == 1) {
    memset(out, kMarker, bytes);
    fill(l, op, base + r, count, out);
    return;
  }
  const int sub = span / radix;
  int last = 0;
  while (last + 1 < radix && r + (last + 1) * sub < n) ++last;
  tree_partial(l, op, count, base, r + last * sub, sub, n, out);
  char* part = malloc(bytes);
  for (int j = last - 1; j >= 0; --j) {
    tree_partial(l, op, count, base, r + j * sub, sub, n, part);
    if (count) MPI_Reduce_local(part, out, count, l->type, op);
  }
  free(part);
}

/* One node's ranks first..last, as mcorecoll folds them there. */
static void fold_node(const layout_t* l, MPI_Op op, int count, int first, int last, char* out, char* c) {
  const int n = last - first + 1;
  if (n <= flat_max || count == 0 || image_bytes(l, count) > kLineData) {
    fold_ranks(l, op, count, first, last, out, c);
    return;
  }
  int span = 1;
  while (span < n) span *= radix;
  tree_partial(l, op, count, first, 0, span, n, out);
}

/* The scans' tree (reduction/scan_shm.hpp, node/line_tree.hpp's PrefixBlocks), for every size,
 * on the node whose first rank is `base`: node rank i's block is P op c_i, P the blocks of node
 * ranks i - 1, i - 2, i - 4, ... below low(i + 1) folded nearest first, each from the left. */
static int low_bit(int j) { return j & -j; }
static void scan_block(const layout_t* l, MPI_Op op, int count, int base, int i, char* out) {
  const size_t bytes = buffer_bytes(l, count);
  memset(out, kMarker, bytes);
  fill(l, op, base + i, count, out);
  if (low_bit(i + 1) == 1) return;
  char *parts = malloc(bytes), *part = malloc(bytes);
  scan_block(l, op, count, base, i - 1, parts);
  for (int d = 2; d < low_bit(i + 1); d *= 2) {
    scan_block(l, op, count, base, i - d, part);
    MPI_Reduce_local(part, parts, count, l->type, op);
  }
  MPI_Reduce_local(parts, out, count, l->type, op);
  free(parts), free(part);
}

/* The prefix of node ranks 0..last of the node whose first rank is `base`, as mcorecoll folds
 * it there: the blocks of last, last - low(last + 1), ..., each folded in from the left. */
static void node_scan(const layout_t* l, MPI_Op op, int count, int base, int last, char* out) {
  char* part = malloc(buffer_bytes(l, count));
  scan_block(l, op, count, base, last, out);
  for (int q = last - low_bit(last + 1); q >= 0; q -= low_bit(q + 1)) {
    scan_block(l, op, count, base, q, part);
    if (count) MPI_Reduce_local(part, out, count, l->type, op);
  }
  free(part);
}

/* This rank's scan (exclusive: exscan; not rank 0's) as mcorecoll gives it: its node's prefix
 * (an exscan's up to the rank before it); across nodes of consecutive ranks, the nodes before
 * its own (each folded as fold_node() does: the leaders' exscan of the node totals, n0 op (n1
 * op ...), every bracketing one up to three nodes) folded in from the left; an exscan's first
 * rank of a node gets the nodes before alone. */
static void scan_reference(const layout_t* l, MPI_Op op, int count, int exclusive, char* out) {
  int k = 0;
  while (k + 1 < nodes && node_first[k + 1] <= me) ++k;
  const int base = node_first[k], local = me - base, own = !exclusive || local > 0;
  if (own) node_scan(l, op, count, base, exclusive ? local - 1 : local, out);
  if (k == 0) return;
  const size_t bytes = buffer_bytes(l, count);
  char *before = malloc(bytes), *node = malloc(bytes), *c = malloc(bytes);
  fold_node(l, op, count, node_first[k - 1], base - 1, before, c);
  for (int j = k - 2; j >= 0; --j) {
    fold_node(l, op, count, node_first[j], node_first[j + 1] - 1, node, c);
    if (count) MPI_Reduce_local(node, before, count, l->type, op);
  }
  if (!own) memcpy(out, before, bytes);
  else if (count) MPI_Reduce_local(before, out, count, l->type, op);
  free(before), free(node), free(c);
}

/* The reference: c0 op (c1 op (... op c(n-1))), folded with MPI_Reduce_local from the last.
 * Across nodes of consecutive ranks, what the fold across nodes gives: each node's ranks so,
 * then the nodes' results in node order, p0 op (p1 op ...). */
static void reference(const layout_t* l, MPI_Op op, int count, char* out) {
  const size_t bytes = buffer_bytes(l, count);
  char *c = malloc(bytes), *node = malloc(bytes);
  fold_node(l, op, count, node_first[nodes - 1], nranks - 1, out, c);
  for (int k = nodes - 2; k >= 0; --k) {
    fold_node(l, op, count, node_first[k], node_first[k + 1] - 1, node, c);
    if (count) MPI_Reduce_local(node, out, count, l->type, op);
  }
  free(c), free(node);
}

/* node_first[] and nodes, for this run. False when the ranks of a host are not consecutive. */
static int find_nodes(void) {
  nodes = 0;
  const char* pretend = getenv("MCORECOLL_TEST_NODE_SIZE");
  if (pretend && atoi(pretend) > 0) {
    for (int r = 0; r < nranks && nodes < kMaxNodes; r += atoi(pretend)) node_first[nodes++] = r;
    node_first[nodes] = nranks;
    return 1;
  }
  char mine[MPI_MAX_PROCESSOR_NAME] = {0};
  int len = 0, consecutive = 1;
  MPI_Get_processor_name(mine, &len);
  char* all = calloc((size_t)nranks, MPI_MAX_PROCESSOR_NAME);
  PMPI_Allgather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, MPI_COMM_WORLD);
  for (int r = 0; r < nranks; ++r) {
    const char* name = all + (size_t)r * MPI_MAX_PROCESSOR_NAME;
    if (r > 0 && strcmp(name, name - MPI_MAX_PROCESSOR_NAME) == 0) continue;
    for (int k = 0; k < nodes; ++k)
      if (strcmp(all + (size_t)node_first[k] * MPI_MAX_PROCESSOR_NAME, name) == 0) consecutive = 0;
    if (nodes < kMaxNodes) node_first[nodes++] = r;
  }
  free(all);
  if (!consecutive) nodes = 1, node_first[0] = 0;
  node_first[nodes] = nranks;
  return consecutive;
}

/* A call's buffers before it: this rank's contribution in `send` (and its copy), `recv` all
 * markers, or the contribution where the call is in place. */
static void prepare(const layout_t* l, MPI_Op op, int count, int in_place, char* send, char* send_copy, char* recv) {
  const size_t bytes = buffer_bytes(l, count);
  memset(send, kMarker, bytes);
  fill(l, op, me, count, send);
  memcpy(send_copy, send, bytes);
  memset(recv, kMarker, bytes);
  if (in_place) fill(l, op, me, count, recv);
}

static void run_reduction(const layout_t* l, MPI_Op op, int count, const char* opname) {
  /* Across more than two nodes, partials of more than 64 KiB together are combined by the MPI
   * library's own allreduce/reduce among the node leaders, whose bracketing is its own. */
  const int exact_before = exact;
  if (nodes > 2 && (size_t)count * (size_t)l->extent * (size_t)nodes > 65536) exact = 0;
  const size_t bytes = buffer_bytes(l, count);
  char *send = malloc(bytes), *send_copy = malloc(bytes), *recv = malloc(bytes), *want = malloc(bytes);
  char what[200];
  reference(l, op, count, want);
  for (int in_place = 0; in_place < 2; ++in_place) {
    /* allreduce */
    prepare(l, op, count, in_place, send, send_copy, recv);
    snprintf(what, sizeof what, "allreduce %s %s count %d%s", l->name, opname, count, in_place ? " in place" : "");
    if (trace) fprintf(stderr, "rank %d: %s\n", me, what);
    CHECK(MPI_Allreduce(in_place ? MPI_IN_PLACE : send, recv, count, l->type, op, MPI_COMM_WORLD) == MPI_SUCCESS, "%s", what);
    check_result(l, count, recv, want, what);
    CHECK(memcmp(send, send_copy, bytes) == 0, "%s: send buffer changed", what);
    /* reduce, every root */
    for (int root = 0; root < nranks; ++root) {
      /* MPICH 4.0.2's own MPI_Reduce with MPI_IN_PLACE at a root other than 0 crashes above
       * 2 KiB (its reduce-scatter-gather algorithm): not through PMPI here. */
      if (DEFECT_REDUCE_IN_PLACE_ROOT && !exact && in_place && root != 0 &&
          (size_t)count * l->base->width * (size_t)l->per_element > 2048)
        continue;
      memset(recv, kMarker, bytes);
      if (in_place && me == root) fill(l, op, me, count, recv);
      snprintf(what, sizeof what, "reduce %s %s count %d root %d%s", l->name, opname, count, root,
               in_place ? " in place" : "");
      if (trace) fprintf(stderr, "rank %d: %s\n", me, what);
      CHECK(MPI_Reduce(in_place && me == root ? MPI_IN_PLACE : send, recv, count, l->type, op, root,
                       MPI_COMM_WORLD) == MPI_SUCCESS, "%s", what);
      if (me == root) check_result(l, count, recv, want, what);
      else {
        int untouched = 1;
        for (size_t b = 0; b < bytes; ++b) untouched &= (unsigned char)recv[b] == kMarker;
        CHECK(untouched, "%s: a non-root's receive buffer was written", what);
      }
    }
  }
  /* scan and exscan. Beyond 32 ranks (oversubscribed: the suite's time) the small counts only;
   * np 32 checks the rest. Across more than three nodes the leaders' exscan brackets as the MPI
   * library does. */
  const int scans = nranks <= 32 || count != kLarge;
  if (nodes > 3) exact = 0;
  char* want_untouched = malloc(bytes); /* exscan's rank 0: its receive buffer as it was */
  for (int exclusive = 0; exclusive < 2 && scans; ++exclusive) {
    if (exclusive && me == 0) {
      /* rank 0's exscan result is undefined: only that the call completes */
    } else {
      scan_reference(l, op, count, exclusive, want);
    }
    for (int in_place = 0; in_place < 2; ++in_place) {
      prepare(l, op, count, in_place, send, send_copy, recv);
      snprintf(what, sizeof what, "%s %s %s count %d%s", exclusive ? "exscan" : "scan", l->name, opname, count,
               in_place ? " in place" : "");
      if (trace) fprintf(stderr, "rank %d: %s\n", me, what);
      const void* from = in_place ? MPI_IN_PLACE : send;
      memcpy(want_untouched, recv, bytes);
      CHECK((exclusive ? MPI_Exscan(from, recv, count, l->type, op, MPI_COMM_WORLD)
                       : MPI_Scan(from, recv, count, l->type, op, MPI_COMM_WORLD)) == MPI_SUCCESS, "%s", what);
      if (!exclusive || me > 0) check_result(l, count, recv, want, what);
      else CHECK(memcmp(recv, want_untouched, bytes) == 0, "%s: rank 0's receive buffer was written", what);
      CHECK(memcmp(send, send_copy, bytes) == 0, "%s: send buffer changed", what);
    }
  }
  /* An exscan's receive buffer is not significant at rank 0 (the standard): null there. Every
   * rank must still take the same path (a hang otherwise). MPICH's own exscan refuses it: only
   * where the call is mcorecoll's (exact: forced). */
  if (scans && count > 0 && (exact || !DEFECT_EXSCAN_NULL_RECVBUF)) {
    prepare(l, op, count, 0, send, send_copy, recv);
    snprintf(what, sizeof what, "exscan %s %s count %d, rank 0's receive buffer null", l->name, opname, count);
    if (me > 0) scan_reference(l, op, count, 1, want);
    CHECK(MPI_Exscan(send, me == 0 ? NULL : recv, count, l->type, op, MPI_COMM_WORLD) == MPI_SUCCESS, "%s", what);
    if (me > 0) check_result(l, count, recv, want, what);
  }
  free(want_untouched);
  free(send), free(send_copy), free(recv), free(want);
  exact = exact_before;
}

static void run_ops(const layout_t* l, const MPI_Op* ops, int nops, const int* counts, int ncounts) {
  for (int o = 0; o < nops; ++o)
    for (int c = 0; c < ncounts; ++c) run_reduction(l, ops[o], counts[c], op_name(ops[o]));
}

static layout_t predefined(const type_t* t) {
  MPI_Aint lb, extent;
  MPI_Type_get_extent(t->type, &lb, &extent);
  layout_t l = {t->name, t->type, t, 1, extent, 0, t->kind == K_FLOAT || t->kind == K_COMPLEX};
  return l;
}

/* ---- the non-blocking and persistent forms ---- */

/* The forms' collectives by `root`: a rank for reduce, or one of these. */
enum { kAllreduce = -1, kScan = -2, kExscan = -3 };
static const char* form_name(int root) {
  return root == kAllreduce ? "allreduce" : root == kScan ? "scan" : root == kExscan ? "exscan" : "reduce";
}

/* Starts the reduction's non-blocking form. */
static int start_nonblocking(const layout_t* l, MPI_Op op, int count, int root, const void* send, void* recv,
                             MPI_Request* request) {
  switch (root) {
    case kAllreduce: return MPI_Iallreduce(send, recv, count, l->type, op, MPI_COMM_WORLD, request);
    case kScan: return MPI_Iscan(send, recv, count, l->type, op, MPI_COMM_WORLD, request);
    case kExscan: return MPI_Iexscan(send, recv, count, l->type, op, MPI_COMM_WORLD, request);
    default: return MPI_Ireduce(send, recv, count, l->type, op, root, MPI_COMM_WORLD, request);
  }
}

/* Initializes the reduction's persistent form. */
static int init_persistent(const layout_t* l, MPI_Op op, int count, int root, const void* send, void* recv,
                           MPI_Request* request) {
  switch (root) {
    case kAllreduce: return PERSISTENT_ALLREDUCE_INIT(send, recv, count, l->type, op, MPI_COMM_WORLD, MPI_INFO_NULL, request);
    case kScan: return PERSISTENT_SCAN_INIT(send, recv, count, l->type, op, MPI_COMM_WORLD, MPI_INFO_NULL, request);
    case kExscan: return PERSISTENT_EXSCAN_INIT(send, recv, count, l->type, op, MPI_COMM_WORLD, MPI_INFO_NULL, request);
    default: return PERSISTENT_REDUCE_INIT(send, recv, count, l->type, op, root, MPI_COMM_WORLD, MPI_INFO_NULL, request);
  }
}

/* One case through a completion method; persistent: initialized once, started twice with
 * other data, then freed. */
static void run_form(const layout_t* l, MPI_Op op, int count, int root, int in_place, int persistent, int method) {
  /* Scans beyond 32 ranks: as in run_reduction(). */
  if (root <= kScan && nranks > 32 && count == kLarge) return;
  /* As run_reduction(): above 64 KiB of partials across more than two nodes, the leaders'
   * PMPI_Iallreduce/PMPI_Ireduce bracket as the MPI library does. */
  const int exact_before = exact;
  if (nodes > 2 && (size_t)count * (size_t)l->extent * (size_t)nodes > 65536) exact = 0;
  if (root <= kScan && nodes > 3) exact = 0;
  const size_t bytes = buffer_bytes(l, count);
  char *send = malloc(bytes), *recv = malloc(bytes), *want = malloc(bytes);
  char what[200];
  const int mine_in_place = in_place && (root < 0 || root == me);
  MPI_Request request = MPI_REQUEST_NULL;
#if defined(MPICH_VERSION)
  if (persistent && method % kCompletionMethods == 3) method = 2; /* MPICH 4.0.2's MPI_Testall fails on its own persistent collectives */
#endif
  for (int start = 0; start < (persistent ? 2 : 1); ++start) {
    value_round = start + 1;
    if (root == kScan || (root == kExscan && me > 0)) scan_reference(l, op, count, root == kExscan, want);
    else reference(l, op, count, want);
    memset(send, kMarker, bytes);
    fill(l, op, me, count, send);
    memset(recv, kMarker, bytes);
    if (mine_in_place) fill(l, op, me, count, recv);
    snprintf(what, sizeof what, "%s%s %s %s count %d%s%s, %s", persistent ? "persistent " : "non-blocking ",
             form_name(root), l->name, op_name(op), count, in_place ? " in place" : "",
             persistent ? (start ? " (second start)" : " (first start)") : "", completion_name(method));
    if (trace) fprintf(stderr, "rank %d: %s\n", me, what);
    const void* from = mine_in_place ? MPI_IN_PLACE : send;
    if (persistent && start == 0)
      CHECK(init_persistent(l, op, count, root, from, recv, &request) == MPI_SUCCESS, "%s: init", what);
    if (persistent) CHECK(MPI_Start(&request) == MPI_SUCCESS, "%s: start", what);
    else CHECK(start_nonblocking(l, op, count, root, from, recv, &request) == MPI_SUCCESS, "%s: post", what);
    CHECK(complete_request(&request, method) == MPI_SUCCESS, "%s: completion", what);
    if ((root < 0 && !(root == kExscan && me == 0)) || root == me) check_result(l, count, recv, want, what);
  }
  if (persistent) CHECK(MPI_Request_free(&request) == MPI_SUCCESS, "%s: free", what);
  value_round = 0;
  exact = exact_before;
  free(send), free(recv), free(want);
}

/* Back-to-back reduces of one line to a slow root: the non-roots return as soon as they have
 * posted, so they run ahead by calls; a rank may not rewrite its line while the root has yet
 * to read it (node/record_lines.hpp). Every result checked. */
static void run_burst(void) {
  enum { kCalls = 300, kInts = 4 };
  int send[kInts], recv[kInts];
  for (int call = 0; call < kCalls; ++call) {
    for (int i = 0; i < kInts; ++i) send[i] = call * 1000 + me * 10 + i;
    if (me == 0 && call % 3 == 0) usleep(200); /* the root lags behind */
    CHECK(MPI_Reduce(send, recv, kInts, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD) == MPI_SUCCESS, "burst call %d", call);
    if (me == 0)
      for (int i = 0; i < kInts; ++i) {
        const int want = nranks * (call * 1000 + i) + 10 * nranks * (nranks - 1) / 2;
        if (recv[i] != want) {
          CHECK(0, "burst reduce call %d element %d: %d, expected %d", call, i, recv[i], want);
          break;
        }
      }
  }
}

/* ---- allgather: blocks of ints, each side its own layout of one signature ---- */

static void run_allgather(int count, int strided_recv, int in_place, int form, int method) {
  MPI_Datatype vec;
  MPI_Type_vector(1, 1, 2, MPI_INT, &vec); /* one int, extent of two after resizing */
  MPI_Datatype gap;
  MPI_Type_create_resized(vec, 0, 2 * sizeof(int), &gap);
  MPI_Type_commit(&gap);
  MPI_Type_free(&vec);
  const int stride = strided_recv ? 2 : 1;
  const size_t recv_ints = (size_t)count * (size_t)nranks * (size_t)stride;
  int* send = malloc((size_t)count * sizeof(int) + kGuard);
  int* recv = malloc(recv_ints * sizeof(int) + kGuard);
  for (int i = 0; i < count; ++i) send[i] = me * 100003 + i;
  memset(recv, kMarker, recv_ints * sizeof(int) + kGuard);
  if (in_place)
    for (int i = 0; i < count; ++i) recv[((size_t)me * (size_t)count + (size_t)i) * (size_t)stride] = send[i];
  char what[160];
  static const char* forms[] = {"", "non-blocking ", "persistent "};
  snprintf(what, sizeof what, "%sallgather count %d%s%s", forms[form], count, strided_recv ? " strided receive" : "",
           in_place ? " in place" : "");
  const void* from = in_place ? MPI_IN_PLACE : send;
  const MPI_Datatype recvtype = strided_recv ? gap : MPI_INT;
  MPI_Request request = MPI_REQUEST_NULL;
#if defined(MPICH_VERSION)
  if (form == 2 && method % kCompletionMethods == 3) method = 2; /* MPICH 4.0.2's MPI_Testall on its persistent collectives */
#endif
  /* MPICH 4.0.2's own MPI_Allgather_init delivers the other ranks' blocks at the first start
   * only: through PMPI (not forced onto mcorecoll's path) it is not checked. */
  if (DEFECT_ALLGATHER_INIT && form == 2 && !exact) {
    free(send), free(recv);
    MPI_Type_free(&gap);
    return;
  }
  if (form == 0) {
    CHECK(MPI_Allgather(from, count, MPI_INT, recv, count, recvtype, MPI_COMM_WORLD) == MPI_SUCCESS, "%s", what);
  } else {
    if (form == 1) CHECK(MPI_Iallgather(from, count, MPI_INT, recv, count, recvtype, MPI_COMM_WORLD, &request) == MPI_SUCCESS, "%s", what);
    else {
      CHECK(PERSISTENT_ALLGATHER_INIT(from, count, MPI_INT, recv, count, recvtype, MPI_COMM_WORLD, MPI_INFO_NULL,
                                      &request) == MPI_SUCCESS, "%s: init", what);
      CHECK(MPI_Start(&request) == MPI_SUCCESS, "%s: start", what);
    }
    CHECK(complete_request(&request, method) == MPI_SUCCESS, "%s: completion", what);
    if (form == 2) CHECK(MPI_Request_free(&request) == MPI_SUCCESS, "%s: free", what);
  }
  int bad = 0;
  for (int r = 0; r < nranks; ++r)
    for (int i = 0; i < count; ++i) {
      const size_t at = ((size_t)r * (size_t)count + (size_t)i) * (size_t)stride;
      if (recv[at] != r * 100003 + i && bad++ == 0) CHECK(0, "%s: block %d element %d", what, r, i);
      if (strided_recv) {
        const unsigned char* g = (const unsigned char*)&recv[at + 1];
        for (size_t b = 0; b < sizeof(int); ++b)
          if (g[b] != kMarker && bad++ == 0) CHECK(0, "%s: a gap was written", what);
      }
    }
  const unsigned char* guard = (const unsigned char*)(recv + recv_ints);
  for (int b = 0; b < kGuard; ++b)
    if (guard[b] != kMarker && bad++ == 0) CHECK(0, "%s: the guard was written", what);
  free(send), free(recv);
  MPI_Type_free(&gap);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  exact = argc > 1 && strcmp(argv[1], "exact") == 0;
  if (getenv("MCORECOLL_REDUCE_FLAT_MAX")) flat_max = atoi(getenv("MCORECOLL_REDUCE_FLAT_MAX"));
  if (getenv("MCORECOLL_REDUCE_TREE_RADIX")) radix = atoi(getenv("MCORECOLL_REDUCE_TREE_RADIX"));
  /* The node algorithms forced by name (decisions/route.hpp), on one node: the tree at every
   * node size, lines flat at every node size (both only where a line holds the contribution). */
  const char* named = getenv("MCORECOLL_ALLREDUCE");
  if (named && strcmp(named, "tree") == 0) flat_max = 0;
  if (named && strcmp(named, "lines") == 0) flat_max = 1 << 30;
  const int bitwise = exact;
  trace = getenv("TEST_TRACE") != NULL;
  /* Hosts whose ranks are not consecutive: no fold in rank order across them (commutative ops
   * folded by node, the others by the MPI library in its own order): checked loosely. */
  if (!find_nodes()) exact = 0;
  MPI_Barrier(MPI_COMM_WORLD); /* sets the communicator up */
  const int small[] = {0, 1, 2, 3, 17};
  const int all[] = {0, 1, 2, 3, 17, kLarge};
  long cases = 0;
  for (int i = 0; i < kTypes; ++i) {
    const type_t* t = &types[i];
    const layout_t l = predefined(t);
    /* The large count for the common types; the small ones for all. */
    const int* counts = (t->type == MPI_DOUBLE || t->type == MPI_INT || t->type == MPI_FLOAT ||
                         t->type == MPI_DOUBLE_INT || t->type == MPI_LONG_DOUBLE || t->type == MPI_C_DOUBLE_COMPLEX)
                            ? all : small;
    const int ncounts = counts == all ? 6 : 5;
    switch (t->kind) {
      case K_INT: case K_UINT: run_ops(&l, integer_ops, 10, counts, ncounts); cases += 10; break;
      case K_FLOAT: run_ops(&l, arithmetic, 4, counts, ncounts); cases += 4; break;
      case K_COMPLEX: run_ops(&l, complex_ops, 2, counts, ncounts); cases += 2; break;
      case K_BOOL: run_ops(&l, logical_ops, 3, counts, ncounts); cases += 3; break;
      case K_BYTE: run_ops(&l, byte_ops, 3, counts, ncounts); cases += 3; break;
      case K_PAIR: run_ops(&l, pair_ops, 2, counts, ncounts); cases += 2; break;
    }
  }
  /* Derived types of one predefined type. */
  const type_t* dbl = &types[20];
  const type_t* i32 = &types[4];
  MPI_Datatype contig, strided, vec, resized;
  MPI_Type_contiguous(3, MPI_DOUBLE, &contig);
  MPI_Type_commit(&contig);
  MPI_Type_vector(2, 1, 2, MPI_INT, &vec); /* int, gap, int: gaps inside the element */
  MPI_Type_create_resized(vec, 0, 4 * sizeof(int), &strided);
  MPI_Type_commit(&strided);
  MPI_Type_free(&vec);
  MPI_Type_create_resized(MPI_DOUBLE, 0, 16, &resized); /* a double, then 8 bytes of gap */
  MPI_Type_commit(&resized);
  const layout_t derived[] = {
      {"contiguous(3, MPI_DOUBLE)", contig, dbl, 3, 3 * sizeof(double), sizeof(double), 1},
      {"vector(2, 1, 2, MPI_INT) resized to 16", strided, i32, 2, 4 * sizeof(int), 2 * sizeof(int), 0},
      {"MPI_DOUBLE resized to 16", resized, dbl, 1, 16, 0, 1},
  };
  /* Neither MPI library applies predefined ops to derived datatypes (MPI_Reduce_local refuses
   * them): mcorecoll hands such calls to PMPI. Derived layouts reduce through user ops, which
   * see the datatype they were given: sums of the layout's base values, gaps left alone. */
  for (int d = 0; d < 3; ++d) {
    current_layout = &derived[d];
    MPI_Op layout_sum;
    MPI_Op_create(layout_sum_fn, 1, &layout_sum);
    for (int c = 0; c < 6; ++c) run_reduction(&derived[d], layout_sum, all[c], "user sum over the layout");
    MPI_Op_free(&layout_sum);
    cases += 1;
  }
  /* User ops on 2x2 matrices of uint32: the product is not commutative. */
  MPI_Datatype matrix;
  MPI_Type_contiguous(4, MPI_UINT32_T, &matrix);
  MPI_Type_commit(&matrix);
  MPI_Op product, sum;
  MPI_Op_create(matrix_product, 0, &product);
  MPI_Op_create(matrix_sum, 1, &sum);
  const type_t* u32 = &types[16];
  const layout_t matrices = {"2x2 uint32 matrix", matrix, u32, 4, 16, 4, 0};
  for (int c = 0; c < 6; ++c) {
    run_reduction(&matrices, product, all[c], "user product (not commutative)");
    run_reduction(&matrices, sum, all[c], "user sum (commutative)");
  }
  cases += 2;
  run_burst();
  /* Across nodes the non-blocking and persistent forms take mcorecoll's path only where its
   * node leaders may call MPI while their rank is blocked elsewhere (Open MPI's progress hook,
   * or MPI_THREAD_MULTIPLE); elsewhere the MPI library's order is its own: checked loosely
   * (the allgather's blocks exactly either way). */
#if !defined(OPEN_MPI)
  if (nodes > 1) exact = 0;
#endif
  int method = 0;
  for (int c = 0; c < 6; ++c)
    for (int strided_recv = 0; strided_recv < 2; ++strided_recv)
      for (int in_place = 0; in_place < 2; ++in_place)
        for (int form = 0; form < 3; ++form) run_allgather(all[c], strided_recv, in_place, form, method++);
  /* The non-blocking and persistent reductions and scans: the pairs mcorecoll combines itself,
   * and one it hands to PMPI (MPI_AINT), every root, in place, through every completion call. */
  struct { int type; MPI_Op op; } pairs[] = {{20, MPI_SUM}, {19, MPI_PROD}, {4, MPI_MAX}, {6, MPI_BXOR},
                                             {5, MPI_LAND}, {13, MPI_MIN}, {17, MPI_BOR}, {2, MPI_SUM},
                                             {1, MPI_PROD}, {18, MPI_SUM}};
  for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; ++p) {
    const layout_t l = predefined(&types[pairs[p].type]);
    for (int c = 0; c < 6; ++c)
      for (int persistent = 0; persistent < 2; ++persistent)
        for (int in_place = 0; in_place < 2; ++in_place) {
          run_form(&l, pairs[p].op, all[c], kAllreduce, in_place, persistent, method++);
          run_form(&l, pairs[p].op, all[c], (c + in_place) % nranks, in_place, persistent, method++);
          run_form(&l, pairs[p].op, all[c], (c + in_place) % 2 ? kScan : kExscan, in_place, persistent, method++);
        }
  }
  MPI_Op_free(&product), MPI_Op_free(&sum);
  MPI_Type_free(&matrix), MPI_Type_free(&contig), MPI_Type_free(&strided), MPI_Type_free(&resized);
  if (me == 0) printf("test_reductions: %ld op and type pairs, %s\n", cases,
                      bitwise ? "bitwise against rank order" : "loose");
  return check_finish("test_reductions");
}
