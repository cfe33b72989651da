/* The C entry points take their arguments as raw register-sized values, so that a library
 * built for one MPI can forward them untouched when it finds itself inside a process of the
 * other MPI (Open MPI handles are pointers, MPICH handles are ints). raw_collectives.cpp
 * (generated) and raw_runtime.cpp turn them back into this build's MPI types. */
#ifndef MCORECOLL_RAW_ABI_H
#define MCORECOLL_RAW_ABI_H

#include <stdint.h>

#include "progress/fast_path.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef intptr_t mcorecoll_raw_t; /* an MPI handle or an int, as passed in a register */

/* The gate of the completion and request calls: progress/fast_path.h. */

/* Each call's raw function for MPI_<name>, mcorecoll_raw_<fn>, and for PMPI_<name> (a tool
 * loaded before mcorecoll calls those), mcorecoll_raw_p<fn>: one body (raw_runtime.cpp), each
 * passing through to the next definition of its own name. */
#define MCORECOLL_RAW_ENTRY(fn, params) \
  int mcorecoll_raw_##fn params;        \
  int mcorecoll_raw_p##fn params;

/* MPI_Init and MPI_Init_thread: the MPI library's, then mcorecoll's check that every rank runs
 * with the same settings. */
MCORECOLL_RAW_ENTRY(init, (void* argc, void* argv))
MCORECOLL_RAW_ENTRY(init_thread, (void* argc, void* argv, mcorecoll_raw_t required, void* provided))
MCORECOLL_RAW_ENTRY(finalize, (void))

/* MPI_Comm_dup and MPI_Comm_dup_with_info: the MPI library's, then the duplicate's set-up where
 * its parent's duplicates are set up at their duplication (node/dup_setup.hpp). Only under the
 * MPI_ names: a tool before mcorecoll that calls PMPI_Comm_dup gets the MPI library's, and the
 * duplicate is set up like any other communicator. */
int mcorecoll_raw_comm_dup(mcorecoll_raw_t comm, void* newcomm);
int mcorecoll_raw_comm_dup_with_info(mcorecoll_raw_t comm, mcorecoll_raw_t info, void* newcomm);
/* MPI_Comm_split, MPI_Comm_split_type, MPI_Comm_create(_group), MPI_Cart_create, MPI_Cart_sub and
 * the graphs (MPI_Graph_create, MPI_Dist_graph_create(_adjacent)): the
 * MPI library's, then the part's set-up where it spans nodes and its parent's first parts are
 * set up at their making (entry/runtime.hpp). Only under the MPI_ names, as the duplications. */
int mcorecoll_raw_comm_split(mcorecoll_raw_t comm, mcorecoll_raw_t color, mcorecoll_raw_t key, void* newcomm);
int mcorecoll_raw_comm_split_type(mcorecoll_raw_t comm, mcorecoll_raw_t type, mcorecoll_raw_t key, mcorecoll_raw_t info,
                                  void* newcomm);
int mcorecoll_raw_comm_create(mcorecoll_raw_t comm, mcorecoll_raw_t group, void* newcomm);
int mcorecoll_raw_comm_create_group(mcorecoll_raw_t comm, mcorecoll_raw_t group, mcorecoll_raw_t tag, void* newcomm);
int mcorecoll_raw_cart_create(mcorecoll_raw_t comm, mcorecoll_raw_t ndims, void* dims, void* periods,
                              mcorecoll_raw_t reorder, void* newcomm);
int mcorecoll_raw_cart_sub(mcorecoll_raw_t comm, void* remain_dims, void* newcomm);
int mcorecoll_raw_graph_create(mcorecoll_raw_t comm, mcorecoll_raw_t nnodes, void* index, void* edges,
                               mcorecoll_raw_t reorder, void* newcomm);
int mcorecoll_raw_dist_graph_create(mcorecoll_raw_t comm, mcorecoll_raw_t n, void* sources, void* degrees,
                                    void* destinations, void* weights, mcorecoll_raw_t info, mcorecoll_raw_t reorder,
                                    void* newcomm);
int mcorecoll_raw_dist_graph_create_adjacent(mcorecoll_raw_t comm, mcorecoll_raw_t indegree, void* sources,
                                             void* sourceweights, mcorecoll_raw_t outdegree, void* destinations,
                                             void* destweights, mcorecoll_raw_t info, mcorecoll_raw_t reorder,
                                             void* newcomm);
/* MPI_Comm_create_from_group (MPI-4 sessions, where the MPI has them): the MPI library's, then
 * its set-up where it spans nodes (entry/runtime.hpp). */
int mcorecoll_raw_comm_create_from_group(mcorecoll_raw_t group, void* tag, mcorecoll_raw_t info,
                                         mcorecoll_raw_t errhandler, void* newcomm);

/* Completion calls: requests, statuses, flags and indices are pointers; counts are ints;
 * MPI_Request_get_status takes its request by value. */
MCORECOLL_RAW_ENTRY(wait, (void* request, void* status))
MCORECOLL_RAW_ENTRY(test, (void* request, void* flag, void* status))
MCORECOLL_RAW_ENTRY(waitall, (mcorecoll_raw_t count, void* requests, void* statuses))
MCORECOLL_RAW_ENTRY(testall, (mcorecoll_raw_t count, void* requests, void* flag, void* statuses))
MCORECOLL_RAW_ENTRY(waitany, (mcorecoll_raw_t count, void* requests, void* index, void* status))
MCORECOLL_RAW_ENTRY(testany, (mcorecoll_raw_t count, void* requests, void* index, void* flag, void* status))
MCORECOLL_RAW_ENTRY(waitsome, (mcorecoll_raw_t incount, void* requests, void* outcount, void* indices, void* statuses))
MCORECOLL_RAW_ENTRY(testsome, (mcorecoll_raw_t incount, void* requests, void* outcount, void* indices, void* statuses))
MCORECOLL_RAW_ENTRY(request_get_status, (mcorecoll_raw_t request, void* flag, void* status))
MCORECOLL_RAW_ENTRY(request_free, (void* request))
MCORECOLL_RAW_ENTRY(start, (void* request))
MCORECOLL_RAW_ENTRY(startall, (mcorecoll_raw_t count, void* requests))

#ifdef __cplusplus
}
#endif

#endif
