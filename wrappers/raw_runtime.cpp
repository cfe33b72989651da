// Raw C entry arguments of the calls that are not collectives -> this build's MPI types, or
// untouched to the next definition (the process's own MPI) when mcorecoll passes through.
#include <mpi.h>

#include "entry/abi_guard.hpp"
#include "entry/dispatch.hpp"
#include "entry/runtime.hpp"
#include "next_definition.hpp"
#include "progress/completion.hpp"
#include "raw_abi.h"
#include "raw_handles.hpp"

using mcorecoll::as_int;
using mcorecoll::handle;
using mcorecoll::NextDefinition;

// The body of an entry point: passed through to the next definition of `name`, or `call`.
#define MCORECOLL_RAW(name, args, call)        \
  if (mcorecoll::passing_through()) {          \
    static NextDefinition next{name};          \
    return next.call_c args;                   \
  }                                            \
  return call
// The raw functions of MPI_<name> and of PMPI_<name> (mcorecoll_raw_<fn>, mcorecoll_raw_p<fn>):
// one body, each passing through to the next definition of its own name.
#define MCORECOLL_RAW_PAIR(fn, name, params, args, call)                               \
  int mcorecoll_raw_##fn params { MCORECOLL_RAW("MPI_" name, args, call); }          \
  int mcorecoll_raw_p##fn params { MCORECOLL_RAW("PMPI_" name, args, call); }

extern "C" {

MCORECOLL_RAW_PAIR(init, "Init", (void* argc, void* argv), (argc, argv),
                   mcorecoll::init(static_cast<int*>(argc), static_cast<char***>(argv)))

MCORECOLL_RAW_PAIR(init_thread, "Init_thread", (void* argc, void* argv, mcorecoll_raw_t required, void* provided), (argc, argv, required, provided),
                   mcorecoll::init_thread(static_cast<int*>(argc), static_cast<char***>(argv), as_int(required),
                                       static_cast<int*>(provided)))

MCORECOLL_RAW_PAIR(finalize, "Finalize", (void), (),
                   mcorecoll::finalize())

int mcorecoll_raw_comm_dup(mcorecoll_raw_t comm, void* newcomm) {
  MCORECOLL_RAW("MPI_Comm_dup", (comm, newcomm),
                mcorecoll::comm_dup(handle<MPI_Comm>(comm), false, MPI_INFO_NULL, static_cast<MPI_Comm*>(newcomm)));
}
int mcorecoll_raw_comm_dup_with_info(mcorecoll_raw_t comm, mcorecoll_raw_t info, void* newcomm) {
  MCORECOLL_RAW("MPI_Comm_dup_with_info", (comm, info, newcomm),
                mcorecoll::comm_dup(handle<MPI_Comm>(comm), true, handle<MPI_Info>(info), static_cast<MPI_Comm*>(newcomm)));
}
int mcorecoll_raw_comm_split(mcorecoll_raw_t comm, mcorecoll_raw_t color, mcorecoll_raw_t key, void* newcomm) {
  MCORECOLL_RAW("MPI_Comm_split", (comm, color, key, newcomm),
                mcorecoll::comm_split(handle<MPI_Comm>(comm), as_int(color), as_int(key),
                                      static_cast<MPI_Comm*>(newcomm)));
}
int mcorecoll_raw_comm_split_type(mcorecoll_raw_t comm, mcorecoll_raw_t type, mcorecoll_raw_t key, mcorecoll_raw_t info,
                                  void* newcomm) {
  MCORECOLL_RAW("MPI_Comm_split_type", (comm, type, key, info, newcomm),
                mcorecoll::comm_split_type(handle<MPI_Comm>(comm), as_int(type), as_int(key), handle<MPI_Info>(info),
                                           static_cast<MPI_Comm*>(newcomm)));
}
int mcorecoll_raw_comm_create(mcorecoll_raw_t comm, mcorecoll_raw_t group, void* newcomm) {
  MCORECOLL_RAW("MPI_Comm_create", (comm, group, newcomm),
                mcorecoll::comm_create(handle<MPI_Comm>(comm), handle<MPI_Group>(group), static_cast<MPI_Comm*>(newcomm)));
}
int mcorecoll_raw_comm_create_group(mcorecoll_raw_t comm, mcorecoll_raw_t group, mcorecoll_raw_t tag,
                                    void* newcomm) {
  MCORECOLL_RAW("MPI_Comm_create_group", (comm, group, tag, newcomm),
                mcorecoll::comm_create_group(handle<MPI_Comm>(comm), handle<MPI_Group>(group), as_int(tag),
                                             static_cast<MPI_Comm*>(newcomm)));
}
int mcorecoll_raw_cart_create(mcorecoll_raw_t comm, mcorecoll_raw_t ndims, void* dims, void* periods,
                              mcorecoll_raw_t reorder, void* newcomm) {
  MCORECOLL_RAW("MPI_Cart_create", (comm, ndims, dims, periods, reorder, newcomm),
                mcorecoll::cart_create(handle<MPI_Comm>(comm), as_int(ndims), static_cast<const int*>(dims),
                                       static_cast<const int*>(periods), as_int(reorder), static_cast<MPI_Comm*>(newcomm)));
}
int mcorecoll_raw_cart_sub(mcorecoll_raw_t comm, void* remain_dims, void* newcomm) {
  MCORECOLL_RAW("MPI_Cart_sub", (comm, remain_dims, newcomm),
                mcorecoll::cart_sub(handle<MPI_Comm>(comm), static_cast<const int*>(remain_dims),
                                    static_cast<MPI_Comm*>(newcomm)));
}

int mcorecoll_raw_graph_create(mcorecoll_raw_t comm, mcorecoll_raw_t nnodes, void* index, void* edges,
                               mcorecoll_raw_t reorder, void* newcomm) {
  MCORECOLL_RAW("MPI_Graph_create", (comm, nnodes, index, edges, reorder, newcomm),
                mcorecoll::graph_create(handle<MPI_Comm>(comm), as_int(nnodes), static_cast<const int*>(index),
                                        static_cast<const int*>(edges), as_int(reorder), static_cast<MPI_Comm*>(newcomm)));
}
int mcorecoll_raw_dist_graph_create(mcorecoll_raw_t comm, mcorecoll_raw_t n, void* sources, void* degrees,
                                    void* destinations, void* weights, mcorecoll_raw_t info, mcorecoll_raw_t reorder,
                                    void* newcomm) {
  MCORECOLL_RAW("MPI_Dist_graph_create", (comm, n, sources, degrees, destinations, weights, info, reorder, newcomm),
                mcorecoll::dist_graph_create(handle<MPI_Comm>(comm), as_int(n), static_cast<const int*>(sources),
                                             static_cast<const int*>(degrees), static_cast<const int*>(destinations),
                                             static_cast<const int*>(weights), handle<MPI_Info>(info), as_int(reorder),
                                             static_cast<MPI_Comm*>(newcomm)));
}
int mcorecoll_raw_dist_graph_create_adjacent(mcorecoll_raw_t comm, mcorecoll_raw_t indegree, void* sources,
                                             void* sourceweights, mcorecoll_raw_t outdegree, void* destinations,
                                             void* destweights, mcorecoll_raw_t info, mcorecoll_raw_t reorder,
                                             void* newcomm) {
  MCORECOLL_RAW("MPI_Dist_graph_create_adjacent",
                (comm, indegree, sources, sourceweights, outdegree, destinations, destweights, info, reorder, newcomm),
                mcorecoll::dist_graph_create_adjacent(
                    handle<MPI_Comm>(comm), as_int(indegree), static_cast<const int*>(sources),
                    static_cast<const int*>(sourceweights), as_int(outdegree), static_cast<const int*>(destinations),
                    static_cast<const int*>(destweights), handle<MPI_Info>(info), as_int(reorder),
                    static_cast<MPI_Comm*>(newcomm)));
}
#if MCORECOLL_MPI_HAS_SESSIONS
int mcorecoll_raw_comm_create_from_group(mcorecoll_raw_t group, void* tag, mcorecoll_raw_t info,
                                         mcorecoll_raw_t errhandler, void* newcomm) {
  MCORECOLL_RAW("MPI_Comm_create_from_group", (group, tag, info, errhandler, newcomm),
                mcorecoll::comm_create_from_group(handle<MPI_Group>(group), static_cast<const char*>(tag),
                                                  handle<MPI_Info>(info), handle<MPI_Errhandler>(errhandler),
                                                  static_cast<MPI_Comm*>(newcomm)));
}
#endif

MCORECOLL_RAW_PAIR(wait, "Wait", (void* request, void* status), (request, status),
                   mcorecoll::wait(static_cast<MPI_Request*>(request), static_cast<MPI_Status*>(status)))

MCORECOLL_RAW_PAIR(test, "Test", (void* request, void* flag, void* status), (request, flag, status),
                   mcorecoll::test(static_cast<MPI_Request*>(request), static_cast<int*>(flag),
                                static_cast<MPI_Status*>(status)))

MCORECOLL_RAW_PAIR(waitall, "Waitall", (mcorecoll_raw_t count, void* requests, void* statuses), (count, requests, statuses),
                   mcorecoll::waitall(as_int(count), static_cast<MPI_Request*>(requests),
                                   static_cast<MPI_Status*>(statuses)))

MCORECOLL_RAW_PAIR(testall, "Testall", (mcorecoll_raw_t count, void* requests, void* flag, void* statuses), (count, requests, flag, statuses),
                   mcorecoll::testall(as_int(count), static_cast<MPI_Request*>(requests), static_cast<int*>(flag),
                                   static_cast<MPI_Status*>(statuses)))

MCORECOLL_RAW_PAIR(waitany, "Waitany", (mcorecoll_raw_t count, void* requests, void* index, void* status), (count, requests, index, status),
                   mcorecoll::waitany(as_int(count), static_cast<MPI_Request*>(requests), static_cast<int*>(index),
                                   static_cast<MPI_Status*>(status)))

MCORECOLL_RAW_PAIR(testany, "Testany", (mcorecoll_raw_t count, void* requests, void* index, void* flag, void* status), (count, requests, index, flag, status),
                   mcorecoll::testany(as_int(count), static_cast<MPI_Request*>(requests), static_cast<int*>(index),
                                   static_cast<int*>(flag), static_cast<MPI_Status*>(status)))

MCORECOLL_RAW_PAIR(waitsome, "Waitsome", (mcorecoll_raw_t incount, void* requests, void* outcount, void* indices,
                           void* statuses), (incount, requests, outcount, indices, statuses),
                   mcorecoll::waitsome(as_int(incount), static_cast<MPI_Request*>(requests),
                                    static_cast<int*>(outcount), static_cast<int*>(indices),
                                    static_cast<MPI_Status*>(statuses)))

MCORECOLL_RAW_PAIR(testsome, "Testsome", (mcorecoll_raw_t incount, void* requests, void* outcount, void* indices,
                           void* statuses), (incount, requests, outcount, indices, statuses),
                   mcorecoll::testsome(as_int(incount), static_cast<MPI_Request*>(requests),
                                    static_cast<int*>(outcount), static_cast<int*>(indices),
                                    static_cast<MPI_Status*>(statuses)))

MCORECOLL_RAW_PAIR(request_get_status, "Request_get_status", (mcorecoll_raw_t request, void* flag, void* status), (request, flag, status),
                   mcorecoll::request_get_status(handle<MPI_Request>(request), static_cast<int*>(flag),
                                              static_cast<MPI_Status*>(status)))

MCORECOLL_RAW_PAIR(request_free, "Request_free", (void* request), (request),
                   mcorecoll::request_free(static_cast<MPI_Request*>(request)))

MCORECOLL_RAW_PAIR(start, "Start", (void* request), (request),
                   mcorecoll::start(static_cast<MPI_Request*>(request)))

MCORECOLL_RAW_PAIR(startall, "Startall", (mcorecoll_raw_t count, void* requests), (count, requests),
                   mcorecoll::startall(as_int(count), static_cast<MPI_Request*>(requests)))

}  // extern "C"
