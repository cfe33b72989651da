/* What crosses the network, counted (issue #55): in the counted build (src/node/
 * transfer_count.hpp) every node leader records what it sends to other nodes, a message of
 * mcorecoll's own or its send side in one of the MPI library's collectives among the leaders.
 * Run across pretend nodes of consecutive ranks (MCORECOLL_TEST_NODE_SIZE, every collective
 * forced onto mcorecoll's path), each collective once, blocking, and every rank's events summed
 * at rank 0 against the algorithm's formula, exactly:
 *  - only node leaders send across nodes (no other rank records anything);
 *  - gather, scatter: one message a node: each leader but the root's gives its node's blocks to
 *    the leaders' gatherv; the root's leader gives the scatterv every other node's blocks;
 *  - gatherv, scatterv: the leaders' exchange of their nodes' sizes (16 bytes a leader), then one
 *    message a node as the gather's and the scatter's, of its ranks' own blocks (v_block), the
 *    root's staying with it;
 *  - allreduce: each leader sends its node's partial to every other leader (nodes - 1
 *    messages of the vector); reduce: to the root's leader only (one message a node);
 *  - allgather: each leader its node's blocks to every other leader; allgatherv the same with
 *    blocks of their own sizes (rank r's of v_block(r) bytes); barrier: an empty message to every
 *    other leader;
 *  - reduce_scatter_block: the allreduce's exchange of the whole vector (a double a rank);
 *  - bcast: the root's leader gives the leaders' bcast the whole message, the others nothing;
 *  - alltoall: each leader gives the leaders' alltoallv the blocks its ranks send off the node;
 *  - alltoallv: the leaders' agreement on the largest block (8 bytes a leader), then the same: the
 *    blocks, of their own sizes (zero too), that its ranks send off the node, and not one size;
 *  - scan, exscan: each leader but the last node's gives the leaders' exscan its node's total
 *    (one vector); the last one takes part with nothing anyone needs.
 * With MCORECOLL_ALLREDUCE=lanes and MCORECOLL_REDUCE=lanes, allreduce and reduce go through the
 * lanes (lanes/reduce_lanes.hpp), as many as the emptiest node has ranks (all of a node's where
 * nodes are of equal size; none with a node of one rank): every rank of a lane, not only the
 * leaders, gives the MPI library's allreduce (reduce) on its lane its slice of the vector (node
 * rank r: elements [r x per, (r + 1) x per), per = ceil(count / lanes)), so that each node sends
 * the vector once, over its lanes; a fuller node's ranks past the lanes send nothing; a
 * reduce's root node takes part with nothing anyone needs. With MCORECOLL_BCAST=lanes each rank
 * of a lane on the root's node gives its lane's bcast its slice of the message, every other
 * node's ranks nothing anyone needs. The allgather's and reduce_scatter_block's lanes need
 * nodes of equal size.
 * Beyond MCORECOLL_LEADERS_DIRECT_MAX_NODES nodes (set in the environment to run it at a few), the
 * barrier, the reductions and the allgathers give the MPI library's collective among the leaders
 * their part instead: the barrier nothing, allreduce the node's partial, reduce the partial but
 * on the root's node, the allgathers the node's blocks.
 * Usage: test_network_counts (MCORECOLL_TEST_NODE_SIZE in the environment). */
#include <dlfcn.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "node/transfer_events.h"

typedef size_t (*events_fn)(struct mcorecoll_transfer_event*, size_t);
typedef void (*clear_fn)(void);
static events_fn copy_events;
static clear_fn clear_events;

enum { kBlock = 24, kCount = 6 }; /* bytes a rank's block; doubles a vector (48 bytes) */
enum { kMaxEvents = 4096 };

static int rank, size, node_size, nodes;
static int direct; /* the leaders exchange one message a pair */
static int lanes;  /* the allreduce through the lanes: every rank sends */
static int allgather_lanes;  /* the allgather through the lanes: every rank sends its block */
static int reduce_scatter_lanes; /* reduce_scatter_block through the lanes: every rank its lane's blocks */

static int node_of(int r) { return r / node_size; }
static int ranks_on(int node) {
  const int first = node * node_size, last = first + node_size < size ? first + node_size : size;
  return last - first;
}
static int is_leader(int r) { return r % node_size == 0; }
/* The lanes: ranks on the emptiest node (the last one, consecutive ranks). */
static int lane_count(void) { return size % node_size == 0 ? node_size : size % node_size; }

/* What one rank sent across nodes in one call. */
struct Sent {
  int64_t messages, message_bytes; /* its own messages to other nodes' leaders */
  int64_t library_calls, library_bytes; /* its parts in the MPI library's collectives among leaders */
  int64_t library_kind;                 /* the last call's MCORECOLL_NETWORK_*, -1 none */
};

static struct Sent summarize(void) {
  static struct mcorecoll_transfer_event events[kMaxEvents];
  const size_t n = copy_events(events, kMaxEvents);
  CHECK(n <= kMaxEvents, "%zu events, more than %d", n, kMaxEvents);
  struct Sent s = {0, 0, 0, 0, -1};
  for (size_t i = 0; i < n && i < kMaxEvents; i++) {
    const struct mcorecoll_transfer_event* e = &events[i];
    if (e->kind != MCORECOLL_TRANSFER_NETWORK) continue;
    if (e->value == MCORECOLL_NETWORK_MESSAGE) {
      CHECK(e->from >= 0 && e->from < nodes && e->from != node_of(rank), "a message to node %d", e->from);
      s.messages++, s.message_bytes += (int64_t)e->bytes;
    } else {
      s.library_calls++, s.library_bytes += (int64_t)e->bytes, s.library_kind = (int64_t)e->value;
    }
  }
  return s;
}

/* The formula of one collective for rank r: what it must have sent. */
typedef struct Sent (*Formula)(int r, int root);

static struct Sent none(void) { struct Sent s = {0, 0, 0, 0, -1}; return s; }
static struct Sent messages(int64_t count, int64_t bytes_each) {
  struct Sent s = none();
  s.messages = count, s.message_bytes = count * bytes_each;
  return s;
}
static struct Sent library(int kind, int64_t bytes) {
  struct Sent s = none();
  s.library_calls = 1, s.library_bytes = bytes, s.library_kind = kind;
  return s;
}

static struct Sent f_gather(int r, int root) {
  return library(MCORECOLL_NETWORK_GATHERV, node_of(r) == node_of(root) ? 0 : (int64_t)ranks_on(node_of(r)) * kBlock);
}
static struct Sent f_scatter(int r, int root) {
  return library(MCORECOLL_NETWORK_SCATTERV,
                 node_of(r) == node_of(root) ? (int64_t)(size - ranks_on(node_of(r))) * kBlock : 0);
}
/* Rank r's slice of the vector on its lane, in bytes (0: it has none). */
static int64_t lane_slice(int r) {
  const int per = (kCount + lane_count() - 1) / lane_count(), rank_in_node = r % node_size;
  if (rank_in_node >= lane_count()) return 0;
  const int first = per * rank_in_node < kCount ? per * rank_in_node : kCount;
  return (int64_t)(kCount - first < per ? kCount - first : per) * 8;
}
static struct Sent f_allreduce(int r, int root) {
  (void)root;
  if (lanes) return lane_slice(r) > 0 ? library(MCORECOLL_NETWORK_LANE, lane_slice(r)) : none();
  return direct ? messages(nodes - 1, kCount * 8) : library(MCORECOLL_NETWORK_REDUCTION, kCount * 8);
}
static struct Sent f_reduce(int r, int root) {
  const int here = node_of(r) == node_of(root);
  if (lanes) return lane_slice(r) > 0 ? library(MCORECOLL_NETWORK_LANE, here ? 0 : lane_slice(r)) : none();
  return direct ? messages(here ? 0 : 1, kCount * 8) : library(MCORECOLL_NETWORK_REDUCTION, here ? 0 : kCount * 8);
}
/* The allreduce's composition over the whole vector of one double a rank. */
static struct Sent f_reduce_scatter(int r, int root) {
  (void)r, (void)root;
  if (reduce_scatter_lanes) return library(MCORECOLL_NETWORK_LANE, (int64_t)nodes * 8); /* one double of each node */
  return direct ? messages(nodes - 1, (int64_t)size * 8) : library(MCORECOLL_NETWORK_REDUCTION, (int64_t)size * 8);
}
/* Each leader's node bytes to every other leader, or into the leaders' allgatherv. */
static struct Sent node_blocks(int64_t bytes) {
  return direct ? messages(nodes - 1, bytes) : library(MCORECOLL_NETWORK_ALLGATHERV, bytes);
}
static struct Sent f_allgather(int r, int root) {
  (void)root;
  if (allgather_lanes) return library(MCORECOLL_NETWORK_LANE, kBlock); /* its own block, once, on its lane */
  return node_blocks((int64_t)ranks_on(node_of(r)) * kBlock);
}
/* Allgatherv's blocks: of three sizes, so that a node's message is the sum of its ranks' own. */
static int v_block(int r) { return (r % 3 + 1) * 8; }
static struct Sent f_allgatherv(int r, int root) {
  (void)root;
  int64_t node_bytes = 0;
  for (int q = 0; q < size; q++)
    if (node_of(q) == node_of(r)) node_bytes += v_block(q);
  return node_blocks(node_bytes);
}
static struct Sent f_gatherv(int r, int root) {
  int64_t node_bytes = 0;
  for (int q = 0; q < size; q++)
    if (node_of(q) == node_of(r) && q != root) node_bytes += v_block(q);
  struct Sent s = library(MCORECOLL_NETWORK_GATHERV, node_of(r) == node_of(root) ? 0 : node_bytes);
  s.library_calls = 2, s.library_bytes += 16; /* the sizes' exchange first */
  return s;
}
static struct Sent f_scatterv(int r, int root) {
  int64_t other_bytes = 0; /* every block but the root's, off the root's node */
  for (int q = 0; q < size; q++)
    if (node_of(q) != node_of(root)) other_bytes += v_block(q);
  struct Sent s = library(MCORECOLL_NETWORK_SCATTERV, node_of(r) == node_of(root) ? other_bytes : 0);
  s.library_calls = 2, s.library_bytes += 16; /* the sizes' exchange first */
  return s;
}
static struct Sent f_barrier(int r, int root) {
  (void)r, (void)root;
  return direct ? messages(nodes - 1, 0) : library(MCORECOLL_NETWORK_BARRIER, 0);
}
static struct Sent f_bcast(int r, int root) {
  if (lanes) return lane_slice(r) > 0 ? library(MCORECOLL_NETWORK_LANE, node_of(r) == node_of(root) ? lane_slice(r) : 0) : none();
  return library(MCORECOLL_NETWORK_BCAST, node_of(r) == node_of(root) ? kCount * 8 : 0);
}
static struct Sent f_alltoall(int r, int root) {
  (void)root;
  const int64_t here = ranks_on(node_of(r));
  return library(MCORECOLL_NETWORK_ALLTOALLV, here * (size - here) * kBlock);
}
/* Alltoallv's block from rank q to rank d: 0-24 bytes, zero-sized ones among them. */
static int vv_block(int q, int d) { return (q + 2 * d) % 4 * 8; }
static struct Sent f_alltoallv(int r, int root) {
  (void)root;
  int64_t off_node = 0;
  for (int q = 0; q < size; q++)
    for (int d = 0; d < size; d++)
      if (node_of(q) == node_of(r) && node_of(d) != node_of(r)) off_node += vv_block(q, d);
  struct Sent s = library(MCORECOLL_NETWORK_ALLTOALLV, off_node);
  s.library_calls = 2, s.library_bytes += 8; /* the agreement on the largest first */
  return s;
}
static struct Sent f_scan(int r, int root) {
  (void)root;
  return library(MCORECOLL_NETWORK_EXSCAN, node_of(r) == nodes - 1 ? 0 : kCount * 8); /* the last node's total: nobody's */
}

/* One call of `name` with root `root` (where it has one). */
static void call(const char* name, int root) {
  char send[kBlock * 64], recv[kBlock * 64];
  double in[kCount], out[kCount];
  for (int i = 0; i < kBlock * 64; i++) send[i] = (char)(rank + i), recv[i] = 0;
  for (int i = 0; i < kCount; i++) in[i] = rank + i;
  if (!strcmp(name, "gather")) MPI_Gather(send, kBlock, MPI_BYTE, recv, kBlock, MPI_BYTE, root, MPI_COMM_WORLD);
  else if (!strcmp(name, "scatter")) MPI_Scatter(send, kBlock, MPI_BYTE, recv, kBlock, MPI_BYTE, root, MPI_COMM_WORLD);
  else if (!strcmp(name, "allreduce")) MPI_Allreduce(in, out, kCount, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  else if (!strcmp(name, "reduce")) MPI_Reduce(in, out, kCount, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
  else if (!strcmp(name, "reduce_scatter_block")) {
    double whole[64], mine;
    for (int i = 0; i < size; i++) whole[i] = rank + i;
    MPI_Reduce_scatter_block(whole, &mine, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  else if (!strcmp(name, "allgather")) MPI_Allgather(send, kBlock, MPI_BYTE, recv, kBlock, MPI_BYTE, MPI_COMM_WORLD);
  else if (!strcmp(name, "allgatherv")) {
    int counts[64], displs[64], at = 0;
    for (int q = 0; q < size; q++) counts[q] = v_block(q), displs[q] = at, at += counts[q];
    MPI_Allgatherv(send, v_block(rank), MPI_BYTE, recv, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
  } else if (!strcmp(name, "gatherv")) {
    int counts[64], displs[64], at = 0;
    for (int q = 0; q < size; q++) counts[q] = v_block(q), displs[q] = at, at += counts[q];
    MPI_Gatherv(send, v_block(rank), MPI_BYTE, recv, counts, displs, MPI_BYTE, root, MPI_COMM_WORLD);
  } else if (!strcmp(name, "scatterv")) {
    int counts[64], displs[64], at = 0;
    for (int q = 0; q < size; q++) counts[q] = v_block(q), displs[q] = at, at += counts[q];
    MPI_Scatterv(send, counts, displs, MPI_BYTE, recv, v_block(rank), MPI_BYTE, root, MPI_COMM_WORLD);
  } else if (!strcmp(name, "barrier")) MPI_Barrier(MPI_COMM_WORLD);
  else if (!strcmp(name, "bcast")) MPI_Bcast(in, kCount, MPI_DOUBLE, root, MPI_COMM_WORLD);
  else if (!strcmp(name, "alltoall")) MPI_Alltoall(send, kBlock, MPI_BYTE, recv, kBlock, MPI_BYTE, MPI_COMM_WORLD);
  else if (!strcmp(name, "alltoallv")) {
    int scounts[64], sdispls[64], rcounts[64], rdispls[64], sat = 0, rat = 0;
    for (int q = 0; q < size; q++) {
      scounts[q] = vv_block(rank, q), sdispls[q] = sat, sat += scounts[q];
      rcounts[q] = vv_block(q, rank), rdispls[q] = rat, rat += rcounts[q];
    }
    MPI_Alltoallv(send, scounts, sdispls, MPI_BYTE, recv, rcounts, rdispls, MPI_BYTE, MPI_COMM_WORLD);
  }
  else if (!strcmp(name, "scan")) MPI_Scan(in, out, kCount, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  else if (!strcmp(name, "exscan")) MPI_Exscan(in, out, kCount, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

static void check(const char* name, Formula formula, int root) {
  PMPI_Barrier(MPI_COMM_WORLD); /* nobody's earlier call in this record */
  clear_events();
  call(name, root);
  PMPI_Barrier(MPI_COMM_WORLD);
  struct Sent mine = summarize();
  struct Sent* all = rank == 0 ? malloc(sizeof(struct Sent) * (size_t)size) : NULL;
  PMPI_Gather(&mine, 5, MPI_INT64_T, all, 5, MPI_INT64_T, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    int64_t node_messages = 0, node_bytes = 0;
    for (int r = 0; r < size; r++) {
      const int sends = is_leader(r) || (lanes && (formula == f_allreduce || formula == f_reduce || formula == f_bcast)) ||
                        (allgather_lanes && formula == f_allgather) || (reduce_scatter_lanes && formula == f_reduce_scatter);
      const struct Sent want = sends ? formula(r, root) : none(), got = all[r];
      CHECK(!memcmp(&want, &got, sizeof want),
            "%s root %d, rank %d (%s of node %d): sent %lld messages of %lld bytes and %lld library calls "
            "(kind %lld) of %lld bytes; expected %lld, %lld, %lld (kind %lld), %lld",
            name, root, r, is_leader(r) ? "leader" : "not leader", node_of(r), (long long)got.messages,
            (long long)got.message_bytes, (long long)got.library_calls, (long long)got.library_kind,
            (long long)got.library_bytes, (long long)want.messages, (long long)want.message_bytes,
            (long long)want.library_calls, (long long)want.library_kind, (long long)want.library_bytes);
      node_messages += got.messages + got.library_calls, node_bytes += got.message_bytes + got.library_bytes;
    }
    printf("%s root %d: %lld messages or library calls across %d nodes, %lld bytes\n", name, root, (long long)node_messages, nodes,
           (long long)node_bytes);
    free(all);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* pretend = getenv("MCORECOLL_TEST_NODE_SIZE");
  node_size = pretend ? atoi(pretend) : 0;
  copy_events = (events_fn)dlsym(RTLD_DEFAULT, "mcorecoll_transfer_events");
  clear_events = (clear_fn)dlsym(RTLD_DEFAULT, "mcorecoll_transfer_events_clear");
  if (node_size < 2 || size <= node_size || size > 64 || !copy_events || !clear_events) {
    CHECK(0, "needs mcorecoll's counted build, MCORECOLL_TEST_NODE_SIZE of 2 or more and more ranks than one node");
    return check_finish("test_network_counts");
  }
  nodes = (size + node_size - 1) / node_size;
  const char* direct_max = getenv("MCORECOLL_LEADERS_DIRECT_MAX_NODES");
  direct = nodes <= (direct_max ? atoi(direct_max) : 16);
  const char* allreduce = getenv("MCORECOLL_ALLREDUCE");
  lanes = allreduce && !strcmp(allreduce, "lanes") && lane_count() >= 2;
  const char* allgather = getenv("MCORECOLL_ALLGATHER");
  allgather_lanes = allgather && !strcmp(allgather, "lanes") && size % node_size == 0;
  const char* reduce_scatter = getenv("MCORECOLL_REDUCE_SCATTER_BLOCK");
  reduce_scatter_lanes = reduce_scatter && !strcmp(reduce_scatter, "lanes") && size % node_size == 0;
  if (rank == 0)
    printf("%d nodes: the leaders' %s%s%s%s\n", nodes, direct ? "messages" : "library collectives",
           lanes ? "; bcast, allreduce and reduce through the lanes" : "",
           allgather_lanes ? "; allgather through the lanes" : "",
           reduce_scatter_lanes ? "; reduce_scatter_block through the lanes" : "");
  static const struct {
    const char* name;
    Formula formula;
    int rooted;
  } all[] = {{"gather", f_gather, 1},       {"scatter", f_scatter, 1}, {"allreduce", f_allreduce, 0},
             {"reduce", f_reduce, 1},       {"allgather", f_allgather, 0}, {"allgatherv", f_allgatherv, 0},
             {"barrier", f_barrier, 0},     {"reduce_scatter_block", f_reduce_scatter, 0},
             {"bcast", f_bcast, 1},         {"alltoall", f_alltoall, 0}, {"scan", f_scan, 0},
             {"exscan", f_scan, 0},         {"gatherv", f_gatherv, 1},
             {"scatterv", f_scatterv, 1},   {"alltoallv", f_alltoallv, 0}};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    if (!all[i].rooted) {
      check(all[i].name, all[i].formula, 0);
      continue;
    }
    /* Every root: a leader and not, on the first node and on the last. */
    for (int root = 0; root < size; root++) check(all[i].name, all[i].formula, root);
  }
  return check_finish("test_network_counts");
}
