/* The events of the counted build (meson option count_transfers; src/node/transfer_count.hpp),
 * as its C functions hand them out. Kept here, not in include/: include/ is the installed public
 * API, and these functions exist only in a test-only build. test/mpi/test_transfer_counts.c
 * includes this file and finds the functions with dlsym (a library without them fails it).
 *
 * Offsets are of a flag word inside the communicator's segment (node/node_shm.hpp), counted from
 * its base: alike on every node rank, so that a read on one rank names the post on another. */
#ifndef MCORECOLL_TRANSFER_EVENTS_H
#define MCORECOLL_TRANSFER_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { MCORECOLL_TRANSFER_POST = 0, MCORECOLL_TRANSFER_READ = 1, MCORECOLL_TRANSFER_NETWORK = 2 };

/* What a node leader hands to the network (MCORECOLL_TRANSFER_NETWORK's `value`): a message of
 * mcorecoll's own to another node's leader, or its part in one of the MPI library's collectives
 * among the leaders (whose messages are the library's own: not seen here). */
enum {
  MCORECOLL_NETWORK_MESSAGE = 0,
  MCORECOLL_NETWORK_BARRIER,
  MCORECOLL_NETWORK_BCAST,
  MCORECOLL_NETWORK_GATHERV,
  MCORECOLL_NETWORK_SCATTERV,
  MCORECOLL_NETWORK_ALLGATHERV,
  MCORECOLL_NETWORK_ALLTOALLV,
  MCORECOLL_NETWORK_REDUCTION, /* allgather, gather, allreduce or reduce of the partials */
  MCORECOLL_NETWORK_EXSCAN,
  MCORECOLL_NETWORK_LANE /* any rank's part in the MPI library's collective on its lane (lanes/) */
};

/* 32 bytes without padding: the test gathers them as bytes. */
struct mcorecoll_transfer_event {
  uint64_t offset; /* the flag word's offset in the segment; network: 0 */
  uint64_t value;  /* post: the value stored; read: the value waited for; network: MCORECOLL_NETWORK_* */
  uint64_t bytes;  /* read: the bytes read from the other rank's area; post: 0; network: the bytes of
                      this rank's data that other nodes need (a message's; in the library's call, its
                      send side but what stays on this node) */
  int32_t kind;    /* MCORECOLL_TRANSFER_POST, _READ or _NETWORK */
  int32_t from;    /* read: the node rank read from; post: -1; network: the node sent to (a message), or
                      -1 (the library's collective) */
};

/* Copies up to `capacity` of this process's events, in program order, into `out`; returns how
 * many there are. The process records from its first mcorecoll_transfer_events_clear() on. */
size_t mcorecoll_transfer_events(struct mcorecoll_transfer_event* out, size_t capacity);
/* Forgets the events so far, and turns recording on. */
void mcorecoll_transfer_events_clear(void);

#ifdef __cplusplus
}
#endif

#endif
