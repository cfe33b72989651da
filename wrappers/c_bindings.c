/* The C entry points. This file deliberately does not include mpi.h: see raw_abi.h. */
#include "raw_abi.h"

#define MCORECOLL_EXPORT __attribute__((visibility("default")))

MCORECOLL_EXPORT int MPI_Barrier(mcorecoll_raw_t comm) { return mcorecoll_raw_barrier(comm); }

MCORECOLL_EXPORT int MPI_Bcast(void* buffer, mcorecoll_raw_t count, mcorecoll_raw_t datatype,
                               mcorecoll_raw_t root, mcorecoll_raw_t comm) {
  return mcorecoll_raw_bcast(buffer, count, datatype, root, comm);
}

MCORECOLL_EXPORT int MPI_Alltoall(const void* sendbuf, mcorecoll_raw_t sendcount,
                                  mcorecoll_raw_t sendtype, void* recvbuf,
                                  mcorecoll_raw_t recvcount, mcorecoll_raw_t recvtype,
                                  mcorecoll_raw_t comm) {
  return mcorecoll_raw_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

MCORECOLL_EXPORT int MPI_Allreduce(const void* sendbuf, void* recvbuf, mcorecoll_raw_t count,
                                   mcorecoll_raw_t datatype, mcorecoll_raw_t op,
                                   mcorecoll_raw_t comm) {
  return mcorecoll_raw_allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

MCORECOLL_EXPORT int MPI_Reduce(const void* sendbuf, void* recvbuf, mcorecoll_raw_t count,
                                mcorecoll_raw_t datatype, mcorecoll_raw_t op, mcorecoll_raw_t root,
                                mcorecoll_raw_t comm) {
  return mcorecoll_raw_reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
}

MCORECOLL_EXPORT int MPI_Allgather(const void* sendbuf, mcorecoll_raw_t sendcount,
                                   mcorecoll_raw_t sendtype, void* recvbuf,
                                   mcorecoll_raw_t recvcount, mcorecoll_raw_t recvtype,
                                   mcorecoll_raw_t comm) {
  return mcorecoll_raw_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

MCORECOLL_EXPORT int MPI_Iallreduce(const void* sendbuf, void* recvbuf, mcorecoll_raw_t count,
                                    mcorecoll_raw_t datatype, mcorecoll_raw_t op, mcorecoll_raw_t comm,
                                    void* request) {
  return mcorecoll_raw_iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request);
}

MCORECOLL_EXPORT int MPI_Ireduce(const void* sendbuf, void* recvbuf, mcorecoll_raw_t count,
                                 mcorecoll_raw_t datatype, mcorecoll_raw_t op, mcorecoll_raw_t root,
                                 mcorecoll_raw_t comm, void* request) {
  return mcorecoll_raw_ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request);
}

MCORECOLL_EXPORT int MPI_Iallgather(const void* sendbuf, mcorecoll_raw_t sendcount,
                                    mcorecoll_raw_t sendtype, void* recvbuf,
                                    mcorecoll_raw_t recvcount, mcorecoll_raw_t recvtype,
                                    mcorecoll_raw_t comm, void* request) {
  return mcorecoll_raw_iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}

MCORECOLL_EXPORT int MPI_Ibarrier(mcorecoll_raw_t comm, void* request) {
  return mcorecoll_raw_ibarrier(comm, request);
}

MCORECOLL_EXPORT int MPI_Ibcast(void* buffer, mcorecoll_raw_t count, mcorecoll_raw_t datatype,
                                mcorecoll_raw_t root, mcorecoll_raw_t comm, void* request) {
  return mcorecoll_raw_ibcast(buffer, count, datatype, root, comm, request);
}

MCORECOLL_EXPORT int MPI_Ialltoall(const void* sendbuf, mcorecoll_raw_t sendcount,
                                   mcorecoll_raw_t sendtype, void* recvbuf,
                                   mcorecoll_raw_t recvcount, mcorecoll_raw_t recvtype,
                                   mcorecoll_raw_t comm, void* request) {
  return mcorecoll_raw_ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                 request);
}

/* The completion calls: they advance mcorecoll's pending non-blocking operations. */
MCORECOLL_EXPORT int MPI_Wait(void* request, void* status) {
  return mcorecoll_raw_wait(request, status);
}
MCORECOLL_EXPORT int MPI_Test(void* request, void* flag, void* status) {
  return mcorecoll_raw_test(request, flag, status);
}
MCORECOLL_EXPORT int MPI_Waitall(mcorecoll_raw_t count, void* requests, void* statuses) {
  return mcorecoll_raw_waitall(count, requests, statuses);
}
MCORECOLL_EXPORT int MPI_Testall(mcorecoll_raw_t count, void* requests, void* flag, void* statuses) {
  return mcorecoll_raw_testall(count, requests, flag, statuses);
}
MCORECOLL_EXPORT int MPI_Waitany(mcorecoll_raw_t count, void* requests, void* index, void* status) {
  return mcorecoll_raw_waitany(count, requests, index, status);
}
MCORECOLL_EXPORT int MPI_Testany(mcorecoll_raw_t count, void* requests, void* index, void* flag,
                                 void* status) {
  return mcorecoll_raw_testany(count, requests, index, flag, status);
}
MCORECOLL_EXPORT int MPI_Waitsome(mcorecoll_raw_t incount, void* requests, void* outcount,
                                  void* indices, void* statuses) {
  return mcorecoll_raw_waitsome(incount, requests, outcount, indices, statuses);
}
MCORECOLL_EXPORT int MPI_Testsome(mcorecoll_raw_t incount, void* requests, void* outcount,
                                  void* indices, void* statuses) {
  return mcorecoll_raw_testsome(incount, requests, outcount, indices, statuses);
}
MCORECOLL_EXPORT int MPI_Request_get_status(mcorecoll_raw_t request, void* flag, void* status) {
  return mcorecoll_raw_request_get_status(request, flag, status);
}
MCORECOLL_EXPORT int MPI_Request_free(void* request) { return mcorecoll_raw_request_free(request); }
MCORECOLL_EXPORT int MPI_Start(void* request) { return mcorecoll_raw_start(request); }
MCORECOLL_EXPORT int MPI_Startall(mcorecoll_raw_t count, void* requests) {
  return mcorecoll_raw_startall(count, requests);
}

/* The persistent collectives under both names: MPI-4's (MPICH) and the pcollreq extension's
 * (Open MPI 4.1). */
#define MCORECOLL_PERSISTENT(name, raw)                                                          \
  MCORECOLL_EXPORT int name##_Barrier_init(mcorecoll_raw_t comm, mcorecoll_raw_t info, void* request) { \
    return raw##_barrier_init(#name "_Barrier_init", comm, info, request);                         \
  }                                                                                              \
  MCORECOLL_EXPORT int name##_Bcast_init(void* buffer, mcorecoll_raw_t count, mcorecoll_raw_t datatype, \
                                         mcorecoll_raw_t root, mcorecoll_raw_t comm,               \
                                         mcorecoll_raw_t info, void* request) {                    \
    return raw##_bcast_init(#name "_Bcast_init", buffer, count, datatype, root, comm, info, request); \
  }                                                                                              \
  MCORECOLL_EXPORT int name##_Alltoall_init(const void* sendbuf, mcorecoll_raw_t sendcount,        \
                                            mcorecoll_raw_t sendtype, void* recvbuf,               \
                                            mcorecoll_raw_t recvcount, mcorecoll_raw_t recvtype,   \
                                            mcorecoll_raw_t comm, mcorecoll_raw_t info,            \
                                            void* request) {                                       \
    return raw##_alltoall_init(#name "_Alltoall_init", sendbuf, sendcount, sendtype, recvbuf,      \
                               recvcount, recvtype, comm, info, request);                          \
  }                                                                                              \
  MCORECOLL_EXPORT int name##_Allreduce_init(const void* sendbuf, void* recvbuf, mcorecoll_raw_t count, \
                                             mcorecoll_raw_t datatype, mcorecoll_raw_t op,          \
                                             mcorecoll_raw_t comm, mcorecoll_raw_t info,            \
                                             void* request) {                                       \
    return raw##_allreduce_init(#name "_Allreduce_init", sendbuf, recvbuf, count, datatype, op, comm, \
                                info, request);                                                    \
  }                                                                                              \
  MCORECOLL_EXPORT int name##_Reduce_init(const void* sendbuf, void* recvbuf, mcorecoll_raw_t count,  \
                                          mcorecoll_raw_t datatype, mcorecoll_raw_t op,             \
                                          mcorecoll_raw_t root, mcorecoll_raw_t comm,               \
                                          mcorecoll_raw_t info, void* request) {                    \
    return raw##_reduce_init(#name "_Reduce_init", sendbuf, recvbuf, count, datatype, op, root, comm, \
                             info, request);                                                       \
  }                                                                                              \
  MCORECOLL_EXPORT int name##_Allgather_init(const void* sendbuf, mcorecoll_raw_t sendcount,       \
                                             mcorecoll_raw_t sendtype, void* recvbuf,              \
                                             mcorecoll_raw_t recvcount, mcorecoll_raw_t recvtype,  \
                                             mcorecoll_raw_t comm, mcorecoll_raw_t info,           \
                                             void* request) {                                      \
    return raw##_allgather_init(#name "_Allgather_init", sendbuf, sendcount, sendtype, recvbuf,    \
                                recvcount, recvtype, comm, info, request);                         \
  }
MCORECOLL_PERSISTENT(MPI, mcorecoll_raw)
MCORECOLL_PERSISTENT(MPIX, mcorecoll_raw)

/* Only to make sure every rank takes part in the statistics at finalize; see runtime.hpp. */
MCORECOLL_EXPORT int MPI_Finalize(void) { return mcorecoll_raw_finalize(); }
