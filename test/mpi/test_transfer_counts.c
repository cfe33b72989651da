/* The hand-offs of one call, counted (the counted build: meson option count_transfers,
 * src/node/transfer_count.hpp). The library records, per process and in program order, every
 * flag a rank posts and every read of another rank's area that a posted flag made legal. For
 * each call measured, every rank copies its events right after the call (before any other MPI
 * call adds to them) and rank 0 gathers them and replays the call:
 *  - the critical path in line hand-offs: each rank's events in order with a clock t from 0; a
 *    post takes the rank's t; a read sets t = max(t, t of the post it waited for) + 1. So a
 *    rank that reads 7 lines one after another pays 7, as node/line_tree.hpp's path_reads()
 *    counts. Posts depend on other ranks' reads, so the replay runs to a fixed point;
 *  - the reads (events) and bytes each rank read from other ranks' areas.
 * Checks: every call shows reads, each matched by a post (else a path the library does not
 * count: the call is named); 8-byte allreduce, reduce (to node rank 0 and to the last),
 * scan, exscan and barrier within 2 ceil(log2 n) hand-offs; the small allreduce and reduces
 * exactly as many as the tree's model predicts (flat up to MCORECOLL_REDUCE_FLAT_MAX ranks:
 * n - 1; else LineTree::path_reads()); the 64 KiB allreduce and reduce read at most their
 * share per rank: a slice of every contribution, then every slice of the result (2 x the
 * message, and n x 64 bytes for the slices' rounding); the small scans exactly the path and
 * the reads their tree gives (scan_tree_counts()), the 64 KiB ones at most as many blocks of
 * the message as that tree's most burdened rank reads (at most 2 log2 n), where a flat scan's
 * last rank reads n - 1; the 8-byte allgather exactly the path and reads of its groups
 * (allgather_group_counts(): every rank reads every line up to MCORECOLL_ALLGATHER_FLAT_MAX
 * ranks, n - 1; beyond, node/line_tree.hpp's LineGroups, about 2 sqrt(n)); the 8-byte bcast
 * and scatter within 2 ceil(log2 n) (a hand-off or two); the 8-byte gathers, allgatherv and
 * all-to-alls, and the reduce-scatters of a vector over a line, exactly the flat exchange's
 * reads on the critical path and on the busiest rank (flat_reads(): the root, or every rank,
 * reads each other rank's line or tile, as tools/node-model.py charges them); the 64 KiB ones
 * at most their share (large_share()).
 * Run one node, every collective forced onto shared memory.
 * Usage: test_transfer_counts */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "node/transfer_events.h"

typedef struct mcorecoll_transfer_event event_t;
typedef size_t (*events_fn)(event_t* out, size_t capacity);
typedef void (*clear_fn)(void);

static events_fn copy_events;
static clear_fn clear_events;
static int me, nranks;
/* The small reductions' shape, as the library's settings give it (decisions/config.cpp). */
static int flat_max = 16, radix = 4;
/* The small allgathers' (allgather/allgather_shm.hpp): groups above this many ranks. */
static int allgather_flat_max = 16;

enum call_kind {
  ALLREDUCE, REDUCE, SCAN, EXSCAN, BARRIER, ALLGATHER, BCAST, GATHER, SCATTER, ALLTOALL,
  GATHERV, SCATTERV, ALLGATHERV, ALLTOALLV, REDUCE_SCATTER_BLOCK, REDUCE_SCATTER
};
typedef struct {
  const char* name;
  enum call_kind kind;
  int count;  /* doubles (a block, for the gathers, scatter and alltoall) */
  int root;   /* REDUCE: -1 the last rank */
} call_t;

#define LARGE_COUNT (64 * 1024 / 8)

static const call_t calls[] = {
    {"allreduce 8 B", ALLREDUCE, 1, 0},
    {"reduce to 0 8 B", REDUCE, 1, 0},
    {"reduce to n-1 8 B", REDUCE, 1, -1},
    {"scan 8 B", SCAN, 1, 0},
    {"exscan 8 B", EXSCAN, 1, 0},
    {"barrier", BARRIER, 0, 0},
    {"allgather 8 B", ALLGATHER, 1, 0},
    {"bcast 8 B", BCAST, 1, 0},
    {"gather 8 B", GATHER, 1, 0},
    {"scatter 8 B", SCATTER, 1, 0},
    {"alltoall 8 B", ALLTOALL, 1, 0},
    {"gatherv 8 B", GATHERV, 1, 0},
    {"scatterv 8 B", SCATTERV, 1, 0},
    {"allgatherv 8 B", ALLGATHERV, 1, 0},
    {"alltoallv 8 B", ALLTOALLV, 1, 0},
    {"reduce_scatter_block 8 B", REDUCE_SCATTER_BLOCK, 1, 0},
    {"reduce_scatter 8 B", REDUCE_SCATTER, 1, 0},
    {"allreduce 64 KiB", ALLREDUCE, LARGE_COUNT, 0},
    {"reduce to 0 64 KiB", REDUCE, LARGE_COUNT, 0},
    {"scan 64 KiB", SCAN, LARGE_COUNT, 0},
    {"exscan 64 KiB", EXSCAN, LARGE_COUNT, 0},
    {"allgather 64 KiB", ALLGATHER, LARGE_COUNT, 0},
    {"bcast 64 KiB", BCAST, LARGE_COUNT, 0},
    {"gather 64 KiB", GATHER, LARGE_COUNT, 0},
    {"scatter 64 KiB", SCATTER, LARGE_COUNT, 0},
    {"alltoall 64 KiB", ALLTOALL, LARGE_COUNT, 0},
    {"gatherv 64 KiB", GATHERV, LARGE_COUNT, 0},
    {"scatterv 64 KiB", SCATTERV, LARGE_COUNT, 0},
    {"allgatherv 64 KiB", ALLGATHERV, LARGE_COUNT, 0},
    {"alltoallv 64 KiB", ALLTOALLV, LARGE_COUNT, 0},
    {"reduce_scatter_block 64 KiB", REDUCE_SCATTER_BLOCK, LARGE_COUNT, 0},
    {"reduce_scatter 64 KiB", REDUCE_SCATTER, LARGE_COUNT, 0},
};

/* Every rank's count and displacement for the v-forms: a block of c->count doubles each. */
static int *vcounts, *vdispls;

static void make_call(const call_t* c, const double* send, double* recv) {
  for (int r = 0; r < nranks; ++r) vcounts[r] = c->count, vdispls[r] = r * c->count;
  switch (c->kind) {
    case ALLREDUCE: MPI_Allreduce(send, recv, c->count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
    case REDUCE:
      MPI_Reduce(send, recv, c->count, MPI_DOUBLE, MPI_SUM, c->root < 0 ? nranks - 1 : c->root, MPI_COMM_WORLD);
      break;
    case SCAN: MPI_Scan(send, recv, c->count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
    case EXSCAN: MPI_Exscan(send, recv, c->count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
    case BARRIER: MPI_Barrier(MPI_COMM_WORLD); break;
    case ALLGATHER: MPI_Allgather(send, c->count, MPI_DOUBLE, recv, c->count, MPI_DOUBLE, MPI_COMM_WORLD); break;
    case BCAST: MPI_Bcast(recv, c->count, MPI_DOUBLE, c->root, MPI_COMM_WORLD); break; /* what the root has */
    case GATHER: MPI_Gather(send, c->count, MPI_DOUBLE, recv, c->count, MPI_DOUBLE, c->root, MPI_COMM_WORLD); break;
    case SCATTER: MPI_Scatter(send, c->count, MPI_DOUBLE, recv, c->count, MPI_DOUBLE, c->root, MPI_COMM_WORLD); break;
    case ALLTOALL: MPI_Alltoall(send, c->count, MPI_DOUBLE, recv, c->count, MPI_DOUBLE, MPI_COMM_WORLD); break;
    case GATHERV:
      MPI_Gatherv(send, c->count, MPI_DOUBLE, recv, vcounts, vdispls, MPI_DOUBLE, c->root, MPI_COMM_WORLD);
      break;
    case SCATTERV:
      MPI_Scatterv(send, vcounts, vdispls, MPI_DOUBLE, recv, c->count, MPI_DOUBLE, c->root, MPI_COMM_WORLD);
      break;
    case ALLGATHERV:
      MPI_Allgatherv(send, c->count, MPI_DOUBLE, recv, vcounts, vdispls, MPI_DOUBLE, MPI_COMM_WORLD);
      break;
    case ALLTOALLV:
      MPI_Alltoallv(send, vcounts, vdispls, MPI_DOUBLE, recv, vcounts, vdispls, MPI_DOUBLE, MPI_COMM_WORLD);
      break;
    case REDUCE_SCATTER_BLOCK:
      MPI_Reduce_scatter_block(send, recv, c->count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      break;
    case REDUCE_SCATTER: MPI_Reduce_scatter(send, recv, vcounts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
  }
}

static int ceil_log2(int n) {
  int k = 0;
  while ((1 << k) < n) ++k;
  return k;
}

/* node/line_tree.hpp's LineTree::path_reads() (the records read on the critical path of a tree
 * reduction), for `reads_result`: an allreduce, or a reduce whose root is not node rank 0.
 * Node rank 0 leads at every level below n and reads its parts there one after another. */
static int tree_path_reads(int n, int r, int reads_result) {
  int reads = 0;
  for (int span = 1; span < n; span *= r) {
    int parts = 1;
    while (parts < r && parts * span < n) ++parts;
    reads += parts - 1;
  }
  return reads + (reads_result && n > 1 ? 1 : 0);
}

/* The path the small reductions' model predicts. */
static int predicted_path(const call_t* c) {
  const int reads_result = c->kind == ALLREDUCE || (c->root < 0 && nranks > 1);
  if (nranks <= flat_max) return nranks - 1; /* every rank that needs the result reads every line */
  return tree_path_reads(nranks, radix, reads_result);
}

/* The scans' tree (node/line_tree.hpp's PrefixBlocks), replayed as the library walks it: each
 * rank reads its block's parts nearest first (i - 1, i - 2, i - 4, ... below low(i + 1)),
 * posts, then reads its prefix's blocks (i - low(i + 1), ...). The longest chain of hand-offs,
 * and the most blocks one rank reads. */
static int low_bit(int j) { return j & -j; }
static void scan_tree_counts(int n, int* path, int* most) {
  int* posted = calloc((size_t)n, sizeof *posted);
  *path = *most = 0;
  for (int i = 0; i < n; ++i) {
    int t = 0, reads = 0;
    for (int d = 1; d < low_bit(i + 1); d *= 2, ++reads) t = (posted[i - d] > t ? posted[i - d] : t) + 1;
    posted[i] = t;
    for (int q = i - low_bit(i + 1); q >= 0; q -= low_bit(q + 1), ++reads) t = (posted[q] > t ? posted[q] : t) + 1;
    if (t > *path) *path = t;
    if (reads > *most) *most = reads;
  }
  free(posted);
}

/* The small allgather's lines, replayed as the library reads them for blocks of `block` bytes:
 * flat, every rank reads every other rank's line; by groups (LineGroups::of(): the largest
 * power of two g with g * g <= n and g blocks in a line's 248 bytes), a leader reads its
 * members' lines and posts its group's, then every rank reads each group's line from the one
 * after its own on, its own leader's too unless it leads. The longest chain and the most lines
 * one rank reads. */
static void allgather_group_counts(int n, int block, int* path, int* most) {
  int g = 1;
  if (n > allgather_flat_max)
    while (4 * g * g <= n && 2 * g * block <= 248) g *= 2;
  if (g == 1) {
    *path = *most = n - 1;
    return;
  }
  const int groups = (n + g - 1) / g;
  *path = *most = 0;
  for (int r = 0; r < n; ++r) {
    const int mine = r / g, leads = r % g == 0;
    int t = 0, reads = 0;
    if (leads) t = reads = (r + g <= n ? g : n - r) - 1;
    for (int i = 1; i <= groups; ++i) {
      const int k = (mine + i) % groups;
      if (k == mine && leads) continue;
      const int posted = (k * g + g <= n ? g : n - k * g) - 1;
      t = (posted > t ? posted : t) + 1;
      ++reads;
    }
    if (t > *path) *path = t;
    if (reads > *most) *most = reads;
  }
}

/* The bytes a rank of a 64 KiB call may read (`message`: a rank's block where there are
 * blocks): a reduction's slice of every contribution, then every slice of the result; a scan's
 * tree's blocks; every other rank's block for the gathers, the all-to-alls and the
 * reduce-scatters (its own block of every other rank's vector); the message for bcast and
 * scatter; the v-forms' header lines on top (exchange/staged_exchange.hpp's HeaderLine: the
 * root's for scatterv, every other rank's for gatherv and alltoallv). */
#define LINE 248
static uint64_t large_share(const call_t* c, uint64_t message, int scan_blocks) {
  const uint64_t others = (uint64_t)(nranks - 1);
  switch (c->kind) {
    case SCAN: case EXSCAN: return (uint64_t)scan_blocks * message;
    case GATHER: case ALLGATHER: case ALLTOALL: case ALLGATHERV:
    case REDUCE_SCATTER_BLOCK: case REDUCE_SCATTER: return others * message;
    case GATHERV: case ALLTOALLV: return others * (message + LINE);
    case BCAST: case SCATTER: return message;
    case SCATTERV: return message + LINE;
    default: return 2 * message + (uint64_t)nranks * 64;
  }
}

/* The small calls whose busiest rank reads every other rank's line or tile one after another
 * (the flat exchange; tools/node-model.py charges them so): the gathers, the allgatherv, the
 * all-to-alls, and a reduce-scatter whose vector is larger than a line. The alltoallv reads the
 * header lines first, and where the tiles do not fit beside the header, the exchange's too. */
static int flat_reads(const call_t* c) {
  const int n = nranks;
  const int vector_in_line = n * c->count * 8 <= LINE;
  switch (c->kind) {
    case GATHER: case ALLTOALL: case GATHERV: case ALLGATHERV: return n - 1;
    case ALLTOALLV: return n * c->count * 8 <= LINE - 8 ? n - 1 : 2 * (n - 1);
    case REDUCE_SCATTER_BLOCK: case REDUCE_SCATTER: return vector_in_line ? 0 : n - 1;
    default: return 0;
  }
}

/* What the replay of one call finds. */
typedef struct {
  long unmatched;   /* reads whose post was not recorded: an uncounted path */
  int path;         /* the critical path in hand-offs */
  long max_reads;   /* reads of other ranks' areas, the most any rank made */
  uint64_t max_bytes;
  long total_reads;
} replay_t;

/* The replay of one call on rank 0, from every rank's events (ev[r], counts[r] of them). */
static replay_t replay(const call_t* c, event_t** ev, const int* counts) {
  replay_t out = {0, 0, 0, 0, 0};
  /* The post each read waited for (its index among the events of the rank read from): same
   * offset, smallest value >= the one waited for (each flag word has one writer). Found once;
   * the times then iterate. */
  int** match = calloc((size_t)nranks, sizeof *match);
  long** time = calloc((size_t)nranks, sizeof *time); /* per event: the rank's t after it */
  for (int r = 0; r < nranks; ++r) {
    match[r] = calloc((size_t)counts[r] + 1, sizeof(int));
    time[r] = calloc((size_t)counts[r] + 1, sizeof(long));
    long reads = 0;
    uint64_t bytes = 0;
    for (int i = 0; i < counts[r]; ++i) {
      const event_t* e = &ev[r][i];
      if (e->kind != MCORECOLL_TRANSFER_READ) continue;
      ++reads;
      bytes += e->bytes;
      int best = -1;
      const int q = e->from;
      for (int j = 0; q >= 0 && q < nranks && j < counts[q]; ++j) {
        const event_t* p = &ev[q][j];
        if (p->kind == MCORECOLL_TRANSFER_POST && p->offset == e->offset && p->value >= e->value &&
            (best < 0 || p->value < ev[q][best].value))
          best = j;
      }
      match[r][i] = best;
      if (best < 0 && out.unmatched++ == 0)
        fprintf(stderr, "np %d %s: e.g. rank %d read rank %d's word at offset %llu (value %llu) without a post of it\n",
                nranks, c->name, r, q, (unsigned long long)e->offset, (unsigned long long)e->value);
    }
    if (reads > out.max_reads) out.max_reads = reads;
    if (bytes > out.max_bytes) out.max_bytes = bytes;
    out.total_reads += reads;
  }
  /* To the fixed point: times only grow, and the longest chain has at most every event once. */
  long events = 0;
  for (int r = 0; r < nranks; ++r) events += counts[r];
  int changed = 1;
  for (long pass = 0; changed && out.unmatched == 0; ++pass) {
    if (pass > events + 1) {
      CHECK(0, "np %d %s: the waits form a cycle", nranks, c->name);
      break;
    }
    changed = 0;
    for (int r = 0; r < nranks; ++r) {
      long t = 0;
      for (int i = 0; i < counts[r]; ++i) {
        if (ev[r][i].kind == MCORECOLL_TRANSFER_READ) {
          const long posted = time[ev[r][i].from][match[r][i]];
          t = (posted > t ? posted : t) + 1;
        }
        if (time[r][i] != t) time[r][i] = t, changed = 1;
      }
      if (t > out.path) out.path = (int)t;
    }
  }
  for (int r = 0; r < nranks; ++r) free(match[r]), free(time[r]);
  free(match), free(time);
  return out;
}

/* One call measured: every rank's events to rank 0, replayed and checked there. */
static void measure(const call_t* c, const double* send, double* recv) {
  for (int warm = 0; warm < 3; ++warm) make_call(c, send, recv);
  /* The MPI library's barrier, not mcorecoll's: nothing of the library's runs between the
   * ranks' clears and the call. */
  PMPI_Barrier(MPI_COMM_WORLD);
  clear_events();
  make_call(c, send, recv);
  /* Copied before any other MPI call: a later collective of the library's would add to them. */
  size_t capacity = 4096;
  event_t* mine = malloc(capacity * sizeof *mine);
  size_t n = copy_events(mine, capacity);
  if (n > capacity) {
    mine = realloc(mine, n * sizeof *mine);
    n = copy_events(mine, n);
  }
  const int count = (int)n;
  int* counts = me == 0 ? malloc((size_t)nranks * sizeof *counts) : NULL;
  PMPI_Gather(&count, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int* byte_counts = NULL;
  int* displs = NULL;
  char* all = NULL;
  if (me == 0) {
    byte_counts = malloc((size_t)nranks * sizeof *byte_counts);
    displs = malloc((size_t)nranks * sizeof *displs);
    long at = 0;
    for (int r = 0; r < nranks; ++r) {
      byte_counts[r] = counts[r] * (int)sizeof(event_t);
      displs[r] = (int)at;
      at += byte_counts[r];
    }
    all = malloc((size_t)at + 1);
  }
  PMPI_Gatherv(mine, count * (int)sizeof(event_t), MPI_BYTE, all, byte_counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
  if (me == 0) {
    event_t** ev = malloc((size_t)nranks * sizeof *ev);
    for (int r = 0; r < nranks; ++r) ev[r] = (event_t*)(all + displs[r]);
    const replay_t got = replay(c, ev, counts);
    const int small = c->count <= 1;
    const int bound = 2 * ceil_log2(nranks);
    const uint64_t message = (uint64_t)c->count * sizeof(double);
    /* A reduction's share: a slice of every contribution, then every slice of the result. A
     * scan's: its tree's blocks, at most 2 log2 n of them. */
    const int scan = c->kind == SCAN || c->kind == EXSCAN;
    int scan_path = 0, scan_blocks = 0;
    scan_tree_counts(nranks, &scan_path, &scan_blocks);
    const uint64_t share = large_share(c, message, scan_blocks);
    int group_path = 0, group_reads = 0;
    allgather_group_counts(nranks, (int)message, &group_path, &group_reads);
    if (got.unmatched)
      printf("transfer_counts: np %d %s: %ld of %ld reads without their posts: an uncounted path\n", nranks, c->name,
             got.unmatched, got.total_reads);
    else if (c->kind == ALLGATHER && small)
      printf("transfer_counts: np %d %s: path %d, reads per rank at most %ld (its groups: %d, %d), bytes read per "
             "rank at most %llu\n", nranks, c->name, got.path, got.max_reads, group_path, group_reads,
             (unsigned long long)got.max_bytes);
    else if (small && flat_reads(c))
      printf("transfer_counts: np %d %s: path %d, reads per rank at most %ld (the flat exchange: %d), bytes read "
             "per rank at most %llu\n", nranks, c->name, got.path, got.max_reads, flat_reads(c),
             (unsigned long long)got.max_bytes);
    else if (small)
      printf("transfer_counts: np %d %s: path %d (at most %d), reads per rank at most %ld, bytes read per rank "
             "at most %llu\n", nranks, c->name, got.path, bound, got.max_reads, (unsigned long long)got.max_bytes);
    else
      printf("transfer_counts: np %d %s: path %d, reads per rank at most %ld, bytes read per rank at most %llu "
             "(share %llu)\n", nranks, c->name, got.path, got.max_reads, (unsigned long long)got.max_bytes,
             (unsigned long long)share);
    fflush(stdout);
    CHECK(got.total_reads > 0, "np %d %s: no reads recorded: an uncounted path", nranks, c->name);
    CHECK(got.unmatched == 0, "np %d %s: %ld reads without their posts: an uncounted path", nranks, c->name,
          got.unmatched);
    if (got.unmatched == 0 && got.total_reads > 0) {
      /* An allgather's every rank needs n blocks: its lines grow with sqrt(n), not log n. */
      if (c->kind == ALLGATHER && small) {
        CHECK(got.path == group_path, "np %d %s: critical path %d, its groups say %d", nranks, c->name, got.path,
              group_path);
        CHECK(got.max_reads == group_reads, "np %d %s: a rank read %ld lines, its groups say at most %d", nranks,
              c->name, got.max_reads, group_reads);
      } else if (small && flat_reads(c)) {
        CHECK(got.path == flat_reads(c), "np %d %s: critical path %d, the flat exchange's is %d", nranks, c->name,
              got.path, flat_reads(c));
        CHECK(got.max_reads == flat_reads(c), "np %d %s: a rank read %ld lines or tiles, the flat exchange's %d",
              nranks, c->name, got.max_reads, flat_reads(c));
      } else if (small)
        CHECK(got.path <= bound, "np %d %s: critical path %d > 2 log2 n = %d", nranks, c->name, got.path, bound);
      if (small && (c->kind == ALLREDUCE || c->kind == REDUCE))
        CHECK(got.path == predicted_path(c),
              "np %d %s: critical path %d, the model (flat up to %d ranks, else the tree of radix %d) says %d", nranks,
              c->name, got.path, flat_max, radix, predicted_path(c));
      if (scan && small) {
        CHECK(got.path == scan_path, "np %d %s: critical path %d, the scans' tree says %d", nranks, c->name, got.path,
              scan_path);
        CHECK(got.max_reads == scan_blocks, "np %d %s: a rank read %ld lines, the scans' tree says at most %d",
              nranks, c->name, got.max_reads, scan_blocks);
      }
      if (!small)
        CHECK(got.max_bytes <= share, "np %d %s: a rank read %llu bytes, more than its share %llu", nranks, c->name,
              (unsigned long long)got.max_bytes, (unsigned long long)share);
    }
    free(ev), free(counts), free(byte_counts), free(displs), free(all);
  }
  free(mine);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  copy_events = (events_fn)dlsym(RTLD_DEFAULT, "mcorecoll_transfer_events");
  clear_events = (clear_fn)dlsym(RTLD_DEFAULT, "mcorecoll_transfer_events_clear");
  if (!copy_events || !clear_events) { /* alike on every rank: no call is made */
    CHECK(me != 0, "no mcorecoll_transfer_events in the process: not mcorecoll's counted build");
    return check_finish("test_transfer_counts");
  }
  if (getenv("MCORECOLL_REDUCE_FLAT_MAX")) flat_max = atoi(getenv("MCORECOLL_REDUCE_FLAT_MAX"));
  if (getenv("MCORECOLL_REDUCE_TREE_RADIX")) radix = atoi(getenv("MCORECOLL_REDUCE_TREE_RADIX"));
  if (getenv("MCORECOLL_ALLGATHER_FLAT_MAX")) allgather_flat_max = atoi(getenv("MCORECOLL_ALLGATHER_FLAT_MAX"));
  /* A block for every rank: the gathers', scatter's and alltoall's buffers. */
  const size_t doubles = (size_t)nranks * LARGE_COUNT;
  vcounts = malloc((size_t)nranks * sizeof *vcounts);
  vdispls = malloc((size_t)nranks * sizeof *vdispls);
  double* send = malloc(doubles * sizeof *send);
  double* recv = malloc(doubles * sizeof *recv);
  for (size_t i = 0; i < doubles; ++i) send[i] = me + (int)(i % 5);
  for (size_t i = 0; i < sizeof calls / sizeof calls[0]; ++i) measure(&calls[i], send, recv);
  free(send), free(recv), free(vcounts), free(vdispls);
  return check_finish("test_transfer_counts");
}
