/* The C entry points that are not collectives: MPI_Init, MPI_Init_thread, MPI_Finalize,
 * MPI_Comm_dup(_with_info), MPI_Comm_split(_type), MPI_Comm_create(_group), MPI_Cart_create,
 * MPI_Cart_sub, the graphs, MPI_Comm_create_from_group, and the completion and request calls. This file deliberately does
 * not include mpi.h: see raw_abi.h.
 *
 * The completion and request calls cost a program nothing while mcorecoll holds no request or
 * operation of its own (most programs, most of the time): one load, one predictable branch,
 * and the MPI library's own call; in a process of another MPI the gate is never open, so those
 * go through raw_runtime.cpp's forwarding.
 *
 * Each is defined under its profiling name too (PMPI_Wait, ...), for a tool loaded before
 * mcorecoll (a profiler's MPI_Wait calls PMPI_Wait). A tool loaded after mcorecoll that defines
 * MPI_X gets mcorecoll's MPI_X calls, and its PMPI_X comes back here; while there is one, the
 * gate stays shut (kToolAfter), so that the common path stays one load. */
#include "library_calls.h"
#include "raw_abi.h"

#include <stddef.h>

#define MCORECOLL_EXPORT __attribute__((visibility("default")))
#define ENGINE_IDLE __builtin_expect(__atomic_load_n(&mcorecoll_fast.users, __ATOMIC_RELAXED) == 0, 1)

/* The MPI library's own (library_calls.h): the fast path starts with these, and the library's
 * calls of these names reach them. */
MCORECOLL_LIBRARY_CALL(PMPI_Init, (void* argc, void* argv), (argc, argv))
MCORECOLL_LIBRARY_CALL(PMPI_Init_thread, (void* argc, void* argv, mcorecoll_raw_t required, void* provided),
                       (argc, argv, required, provided))
MCORECOLL_LIBRARY_CALL(PMPI_Finalize, (void), ())
MCORECOLL_LIBRARY_CALL(PMPI_Wait, (void* request, void* status), (request, status))
MCORECOLL_LIBRARY_CALL(PMPI_Test, (void* request, void* flag, void* status), (request, flag, status))
MCORECOLL_LIBRARY_CALL(PMPI_Waitall, (mcorecoll_raw_t count, void* requests, void* statuses),
                       (count, requests, statuses))
MCORECOLL_LIBRARY_CALL(PMPI_Testall, (mcorecoll_raw_t count, void* requests, void* flag, void* statuses),
                       (count, requests, flag, statuses))
MCORECOLL_LIBRARY_CALL(PMPI_Waitany, (mcorecoll_raw_t count, void* requests, void* index, void* status),
                       (count, requests, index, status))
MCORECOLL_LIBRARY_CALL(PMPI_Testany, (mcorecoll_raw_t count, void* requests, void* index, void* flag, void* status),
                       (count, requests, index, flag, status))
MCORECOLL_LIBRARY_CALL(PMPI_Waitsome,
                       (mcorecoll_raw_t incount, void* requests, void* outcount, void* indices, void* statuses),
                       (incount, requests, outcount, indices, statuses))
MCORECOLL_LIBRARY_CALL(PMPI_Testsome,
                       (mcorecoll_raw_t incount, void* requests, void* outcount, void* indices, void* statuses),
                       (incount, requests, outcount, indices, statuses))
MCORECOLL_LIBRARY_CALL(PMPI_Request_get_status, (mcorecoll_raw_t request, void* flag, void* status),
                       (request, flag, status))
MCORECOLL_LIBRARY_CALL(PMPI_Request_free, (void* request), (request))
MCORECOLL_LIBRARY_CALL(PMPI_Start, (void* request), (request))
MCORECOLL_LIBRARY_CALL(PMPI_Startall, (mcorecoll_raw_t count, void* requests), (count, requests))

__attribute__((aligned(128))) struct mcorecoll_fast_path mcorecoll_fast = {
    0, __wrap_PMPI_Test, __wrap_PMPI_Wait, __wrap_PMPI_Testall, __wrap_PMPI_Waitall, __wrap_PMPI_Testany,
    __wrap_PMPI_Testsome, __wrap_PMPI_Request_get_status, __wrap_PMPI_Waitany, __wrap_PMPI_Waitsome,
    __wrap_PMPI_Request_free, __wrap_PMPI_Start, __wrap_PMPI_Startall};

/* Set in `users` for good while a tool after mcorecoll defines a completion or request call. */
enum { kToolAfter = 1 << 29 };

/* A tool's MPI_X, where one loaded after mcorecoll defines it (abi_guard.cpp); null otherwise. */
static struct {
  int (*init)(void*, void*);
  int (*init_thread)(void*, void*, mcorecoll_raw_t, void*);
  int (*finalize)(void);
  int (*comm_dup)(mcorecoll_raw_t, void*);
  int (*comm_dup_with_info)(mcorecoll_raw_t, mcorecoll_raw_t, void*);
  int (*comm_split)(mcorecoll_raw_t, mcorecoll_raw_t, mcorecoll_raw_t, void*);
  int (*comm_split_type)(mcorecoll_raw_t, mcorecoll_raw_t, mcorecoll_raw_t, mcorecoll_raw_t, void*);
  int (*comm_create)(mcorecoll_raw_t, mcorecoll_raw_t, void*);
  int (*comm_create_group)(mcorecoll_raw_t, mcorecoll_raw_t, mcorecoll_raw_t, void*);
  int (*cart_create)(mcorecoll_raw_t, mcorecoll_raw_t, void*, void*, mcorecoll_raw_t, void*);
  int (*cart_sub)(mcorecoll_raw_t, void*, void*);
  int (*graph_create)(mcorecoll_raw_t, mcorecoll_raw_t, void*, void*, mcorecoll_raw_t, void*);
  int (*dist_graph_create)(mcorecoll_raw_t, mcorecoll_raw_t, void*, void*, void*, void*, mcorecoll_raw_t,
                           mcorecoll_raw_t, void*);
  int (*dist_graph_create_adjacent)(mcorecoll_raw_t, mcorecoll_raw_t, void*, void*, mcorecoll_raw_t, void*, void*,
                                    mcorecoll_raw_t, mcorecoll_raw_t, void*);
  int (*comm_create_from_group)(mcorecoll_raw_t, void*, mcorecoll_raw_t, mcorecoll_raw_t, void*);
  int (*wait)(void*, void*);
  int (*test)(void*, void*, void*);
  int (*waitall)(mcorecoll_raw_t, void*, void*);
  int (*testall)(mcorecoll_raw_t, void*, void*, void*);
  int (*waitany)(mcorecoll_raw_t, void*, void*, void*);
  int (*testany)(mcorecoll_raw_t, void*, void*, void*, void*);
  int (*waitsome)(mcorecoll_raw_t, void*, void*, void*, void*);
  int (*testsome)(mcorecoll_raw_t, void*, void*, void*, void*);
  int (*request_get_status)(mcorecoll_raw_t, void*, void*);
  int (*request_free)(void*);
  int (*start)(void*);
  int (*startall)(mcorecoll_raw_t, void*);
} tools;

#define FIND(field, name)                                                                     \
  do {                                                                                        \
    void* fn = mcorecoll_library_lookup("P" name);                                            \
    if (fn) *(void**)&mcorecoll_fast.field = fn;                                              \
  } while (0)
#define TOOL(field, name) (*(void**)&tools.field = mcorecoll_tool_after(name, "P" name))

/* At load, when every object of the process is there: the MPI library's functions for the
 * fast path (one call less than through __wrap_), and the tools after mcorecoll. */
__attribute__((constructor)) static void find_library_and_tools(void) {
  FIND(test, "MPI_Test");
  FIND(wait, "MPI_Wait");
  FIND(testall, "MPI_Testall");
  FIND(waitall, "MPI_Waitall");
  FIND(testany, "MPI_Testany");
  FIND(testsome, "MPI_Testsome");
  FIND(request_get_status, "MPI_Request_get_status");
  FIND(waitany, "MPI_Waitany");
  FIND(waitsome, "MPI_Waitsome");
  FIND(request_free, "MPI_Request_free");
  FIND(start, "MPI_Start");
  FIND(startall, "MPI_Startall");
  TOOL(init, "MPI_Init");
  TOOL(init_thread, "MPI_Init_thread");
  TOOL(finalize, "MPI_Finalize");
  TOOL(comm_dup, "MPI_Comm_dup");
  TOOL(comm_dup_with_info, "MPI_Comm_dup_with_info");
  TOOL(comm_split, "MPI_Comm_split");
  TOOL(comm_split_type, "MPI_Comm_split_type");
  TOOL(comm_create, "MPI_Comm_create");
  TOOL(comm_create_group, "MPI_Comm_create_group");
  TOOL(cart_create, "MPI_Cart_create");
  TOOL(cart_sub, "MPI_Cart_sub");
  TOOL(graph_create, "MPI_Graph_create");
  TOOL(dist_graph_create, "MPI_Dist_graph_create");
  TOOL(dist_graph_create_adjacent, "MPI_Dist_graph_create_adjacent");
#if MCORECOLL_MPI_HAS_SESSIONS
  TOOL(comm_create_from_group, "MPI_Comm_create_from_group");
#endif
  int completion = TOOL(wait, "MPI_Wait") != NULL;
  completion |= TOOL(test, "MPI_Test") != NULL;
  completion |= TOOL(waitall, "MPI_Waitall") != NULL;
  completion |= TOOL(testall, "MPI_Testall") != NULL;
  completion |= TOOL(waitany, "MPI_Waitany") != NULL;
  completion |= TOOL(testany, "MPI_Testany") != NULL;
  completion |= TOOL(waitsome, "MPI_Waitsome") != NULL;
  completion |= TOOL(testsome, "MPI_Testsome") != NULL;
  completion |= TOOL(request_get_status, "MPI_Request_get_status") != NULL;
  completion |= TOOL(request_free, "MPI_Request_free") != NULL;
  completion |= TOOL(start, "MPI_Start") != NULL;
  completion |= TOOL(startall, "MPI_Startall") != NULL;
  if (completion) __atomic_add_fetch(&mcorecoll_fast.users, kToolAfter, __ATOMIC_RELAXED);
}

MCORECOLL_EXPORT int MPI_Init(void* argc, void* argv) {
  if (tools.init) return tools.init(argc, argv);
  return mcorecoll_raw_init(argc, argv);
}
MCORECOLL_EXPORT int PMPI_Init(void* argc, void* argv) { return mcorecoll_raw_pinit(argc, argv); }
MCORECOLL_EXPORT int MPI_Init_thread(void* argc, void* argv, mcorecoll_raw_t required, void* provided) {
  if (tools.init_thread) return tools.init_thread(argc, argv, required, provided);
  return mcorecoll_raw_init_thread(argc, argv, required, provided);
}
MCORECOLL_EXPORT int PMPI_Init_thread(void* argc, void* argv, mcorecoll_raw_t required, void* provided) {
  return mcorecoll_raw_pinit_thread(argc, argv, required, provided);
}
/* Every rank takes part in the statistics, and operations left pending complete. */
MCORECOLL_EXPORT int MPI_Finalize(void) {
  if (tools.finalize) return tools.finalize();
  return mcorecoll_raw_finalize();
}
MCORECOLL_EXPORT int PMPI_Finalize(void) { return mcorecoll_raw_pfinalize(); }

/* A duplicate of a communicator set up across nodes is set up at its duplication (raw_abi.h). */
MCORECOLL_EXPORT int MPI_Comm_dup(mcorecoll_raw_t comm, void* newcomm) {
  if (tools.comm_dup) return tools.comm_dup(comm, newcomm);
  return mcorecoll_raw_comm_dup(comm, newcomm);
}
MCORECOLL_EXPORT int MPI_Comm_dup_with_info(mcorecoll_raw_t comm, mcorecoll_raw_t info, void* newcomm) {
  if (tools.comm_dup_with_info) return tools.comm_dup_with_info(comm, info, newcomm);
  return mcorecoll_raw_comm_dup_with_info(comm, info, newcomm);
}
/* A part of a communicator set up across nodes, where it spans nodes, is set up at its making
 * (raw_abi.h). */
MCORECOLL_EXPORT int MPI_Comm_split(mcorecoll_raw_t comm, mcorecoll_raw_t color, mcorecoll_raw_t key, void* newcomm) {
  if (tools.comm_split) return tools.comm_split(comm, color, key, newcomm);
  return mcorecoll_raw_comm_split(comm, color, key, newcomm);
}
MCORECOLL_EXPORT int MPI_Comm_split_type(mcorecoll_raw_t comm, mcorecoll_raw_t type, mcorecoll_raw_t key,
                                         mcorecoll_raw_t info, void* newcomm) {
  if (tools.comm_split_type) return tools.comm_split_type(comm, type, key, info, newcomm);
  return mcorecoll_raw_comm_split_type(comm, type, key, info, newcomm);
}
MCORECOLL_EXPORT int MPI_Comm_create(mcorecoll_raw_t comm, mcorecoll_raw_t group, void* newcomm) {
  if (tools.comm_create) return tools.comm_create(comm, group, newcomm);
  return mcorecoll_raw_comm_create(comm, group, newcomm);
}
MCORECOLL_EXPORT int MPI_Comm_create_group(mcorecoll_raw_t comm, mcorecoll_raw_t group, mcorecoll_raw_t tag,
                                           void* newcomm) {
  if (tools.comm_create_group) return tools.comm_create_group(comm, group, tag, newcomm);
  return mcorecoll_raw_comm_create_group(comm, group, tag, newcomm);
}
MCORECOLL_EXPORT int MPI_Cart_create(mcorecoll_raw_t comm, mcorecoll_raw_t ndims, void* dims, void* periods,
                                     mcorecoll_raw_t reorder, void* newcomm) {
  if (tools.cart_create) return tools.cart_create(comm, ndims, dims, periods, reorder, newcomm);
  return mcorecoll_raw_cart_create(comm, ndims, dims, periods, reorder, newcomm);
}
MCORECOLL_EXPORT int MPI_Cart_sub(mcorecoll_raw_t comm, void* remain_dims, void* newcomm) {
  if (tools.cart_sub) return tools.cart_sub(comm, remain_dims, newcomm);
  return mcorecoll_raw_cart_sub(comm, remain_dims, newcomm);
}

MCORECOLL_EXPORT int MPI_Graph_create(mcorecoll_raw_t comm, mcorecoll_raw_t nnodes, void* index, void* edges,
                                     mcorecoll_raw_t reorder, void* newcomm) {
  if (tools.graph_create) return tools.graph_create(comm, nnodes, index, edges, reorder, newcomm);
  return mcorecoll_raw_graph_create(comm, nnodes, index, edges, reorder, newcomm);
}
MCORECOLL_EXPORT int MPI_Dist_graph_create(mcorecoll_raw_t comm, mcorecoll_raw_t n, void* sources, void* degrees,
                                          void* destinations, void* weights, mcorecoll_raw_t info,
                                          mcorecoll_raw_t reorder, void* newcomm) {
  if (tools.dist_graph_create)
    return tools.dist_graph_create(comm, n, sources, degrees, destinations, weights, info, reorder, newcomm);
  return mcorecoll_raw_dist_graph_create(comm, n, sources, degrees, destinations, weights, info, reorder, newcomm);
}
MCORECOLL_EXPORT int MPI_Dist_graph_create_adjacent(mcorecoll_raw_t comm, mcorecoll_raw_t indegree, void* sources,
                                                   void* sourceweights, mcorecoll_raw_t outdegree,
                                                   void* destinations, void* destweights, mcorecoll_raw_t info,
                                                   mcorecoll_raw_t reorder, void* newcomm) {
  if (tools.dist_graph_create_adjacent)
    return tools.dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree, destinations,
                                            destweights, info, reorder, newcomm);
  return mcorecoll_raw_dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree, destinations,
                                                  destweights, info, reorder, newcomm);
}
#if MCORECOLL_MPI_HAS_SESSIONS
/* A communicator made from a group of a session, where it spans nodes (raw_abi.h). */
MCORECOLL_EXPORT int MPI_Comm_create_from_group(mcorecoll_raw_t group, void* tag, mcorecoll_raw_t info,
                                               mcorecoll_raw_t errhandler, void* newcomm) {
  if (tools.comm_create_from_group) return tools.comm_create_from_group(group, tag, info, errhandler, newcomm);
  return mcorecoll_raw_comm_create_from_group(group, tag, info, errhandler, newcomm);
}
#endif

/* MPI_<name> and PMPI_<name> of a completion or request call: the fast path, else the tool
 * after mcorecoll (MPI_ only), else mcorecoll's completion code. */
#define COMPLETION(Name, field, params, args)                       \
  MCORECOLL_EXPORT int MPI_##Name params {                          \
    if (ENGINE_IDLE) return mcorecoll_fast.field args;              \
    if (tools.field) return tools.field args;                       \
    return mcorecoll_raw_##field args;                              \
  }                                                                 \
  MCORECOLL_EXPORT int PMPI_##Name params {                         \
    if (ENGINE_IDLE) return mcorecoll_fast.field args;              \
    return mcorecoll_raw_p##field args;                             \
  }

COMPLETION(Wait, wait, (void* request, void* status), (request, status))
COMPLETION(Test, test, (void* request, void* flag, void* status), (request, flag, status))
COMPLETION(Waitall, waitall, (mcorecoll_raw_t count, void* requests, void* statuses), (count, requests, statuses))
COMPLETION(Testall, testall, (mcorecoll_raw_t count, void* requests, void* flag, void* statuses),
           (count, requests, flag, statuses))
COMPLETION(Waitany, waitany, (mcorecoll_raw_t count, void* requests, void* index, void* status),
           (count, requests, index, status))
COMPLETION(Testany, testany, (mcorecoll_raw_t count, void* requests, void* index, void* flag, void* status),
           (count, requests, index, flag, status))
COMPLETION(Waitsome, waitsome, (mcorecoll_raw_t incount, void* requests, void* outcount, void* indices, void* statuses),
           (incount, requests, outcount, indices, statuses))
COMPLETION(Testsome, testsome, (mcorecoll_raw_t incount, void* requests, void* outcount, void* indices, void* statuses),
           (incount, requests, outcount, indices, statuses))
COMPLETION(Request_get_status, request_get_status, (mcorecoll_raw_t request, void* flag, void* status),
           (request, flag, status))
COMPLETION(Request_free, request_free, (void* request), (request))
COMPLETION(Start, start, (void* request), (request))
COMPLETION(Startall, startall, (mcorecoll_raw_t count, void* requests), (count, requests))
