/* The C entry points take their arguments as raw register-sized values, so that a library
 * built for one MPI can forward them untouched when it finds itself inside a process of the
 * other MPI (Open MPI handles are pointers, MPICH handles are ints). raw_entry.cpp turns them
 * back into this build's MPI types. */
#ifndef MCORECOLL_RAW_ABI_H
#define MCORECOLL_RAW_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef intptr_t mcorecoll_raw_t; /* an MPI handle or an int, as passed in a register */

int mcorecoll_raw_barrier(mcorecoll_raw_t comm);
int mcorecoll_raw_bcast(void* buffer, mcorecoll_raw_t count, mcorecoll_raw_t datatype,
                        mcorecoll_raw_t root, mcorecoll_raw_t comm);
int mcorecoll_raw_alltoall(const void* sendbuf, mcorecoll_raw_t sendcount,
                           mcorecoll_raw_t sendtype, void* recvbuf, mcorecoll_raw_t recvcount,
                           mcorecoll_raw_t recvtype, mcorecoll_raw_t comm);
int mcorecoll_raw_allreduce(const void* sendbuf, void* recvbuf, mcorecoll_raw_t count,
                            mcorecoll_raw_t datatype, mcorecoll_raw_t op, mcorecoll_raw_t comm);
int mcorecoll_raw_reduce(const void* sendbuf, void* recvbuf, mcorecoll_raw_t count,
                         mcorecoll_raw_t datatype, mcorecoll_raw_t op, mcorecoll_raw_t root,
                         mcorecoll_raw_t comm);
int mcorecoll_raw_allgather(const void* sendbuf, mcorecoll_raw_t sendcount,
                            mcorecoll_raw_t sendtype, void* recvbuf, mcorecoll_raw_t recvcount,
                            mcorecoll_raw_t recvtype, mcorecoll_raw_t comm);
int mcorecoll_raw_iallreduce(const void* sendbuf, void* recvbuf, mcorecoll_raw_t count,
                             mcorecoll_raw_t datatype, mcorecoll_raw_t op, mcorecoll_raw_t comm, void* request);
int mcorecoll_raw_ireduce(const void* sendbuf, void* recvbuf, mcorecoll_raw_t count,
                          mcorecoll_raw_t datatype, mcorecoll_raw_t op, mcorecoll_raw_t root,
                          mcorecoll_raw_t comm, void* request);
int mcorecoll_raw_iallgather(const void* sendbuf, mcorecoll_raw_t sendcount,
                             mcorecoll_raw_t sendtype, void* recvbuf, mcorecoll_raw_t recvcount,
                             mcorecoll_raw_t recvtype, mcorecoll_raw_t comm, void* request);
int mcorecoll_raw_finalize(void);

/* Non-blocking forms; `request` points to an MPI_Request. */
int mcorecoll_raw_ibarrier(mcorecoll_raw_t comm, void* request);
int mcorecoll_raw_ibcast(void* buffer, mcorecoll_raw_t count, mcorecoll_raw_t datatype,
                         mcorecoll_raw_t root, mcorecoll_raw_t comm, void* request);
int mcorecoll_raw_ialltoall(const void* sendbuf, mcorecoll_raw_t sendcount,
                            mcorecoll_raw_t sendtype, void* recvbuf, mcorecoll_raw_t recvcount,
                            mcorecoll_raw_t recvtype, mcorecoll_raw_t comm, void* request);

/* Completion calls: requests, statuses, flags and indices are pointers; counts are ints;
 * MPI_Request_get_status takes its request by value. */
int mcorecoll_raw_wait(void* request, void* status);
int mcorecoll_raw_test(void* request, void* flag, void* status);
int mcorecoll_raw_waitall(mcorecoll_raw_t count, void* requests, void* statuses);
int mcorecoll_raw_testall(mcorecoll_raw_t count, void* requests, void* flag, void* statuses);
int mcorecoll_raw_waitany(mcorecoll_raw_t count, void* requests, void* index, void* status);
int mcorecoll_raw_testany(mcorecoll_raw_t count, void* requests, void* index, void* flag, void* status);
int mcorecoll_raw_waitsome(mcorecoll_raw_t incount, void* requests, void* outcount, void* indices,
                           void* statuses);
int mcorecoll_raw_testsome(mcorecoll_raw_t incount, void* requests, void* outcount, void* indices,
                           void* statuses);
int mcorecoll_raw_request_get_status(mcorecoll_raw_t request, void* flag, void* status);
int mcorecoll_raw_request_free(void* request);
int mcorecoll_raw_start(void* request);
int mcorecoll_raw_startall(mcorecoll_raw_t count, void* requests);

/* Persistent forms: MPI-4's MPI_X_init and Open MPI 4.1's MPIX_X_init; `name` is the one the
 * application called (a foreign MPI gets the call under that name). */
int mcorecoll_raw_barrier_init(const char* name, mcorecoll_raw_t comm, mcorecoll_raw_t info, void* request);
int mcorecoll_raw_bcast_init(const char* name, void* buffer, mcorecoll_raw_t count, mcorecoll_raw_t datatype,
                             mcorecoll_raw_t root, mcorecoll_raw_t comm, mcorecoll_raw_t info, void* request);
int mcorecoll_raw_alltoall_init(const char* name, const void* sendbuf, mcorecoll_raw_t sendcount,
                                mcorecoll_raw_t sendtype, void* recvbuf, mcorecoll_raw_t recvcount,
                                mcorecoll_raw_t recvtype, mcorecoll_raw_t comm, mcorecoll_raw_t info,
                                void* request);

int mcorecoll_raw_allreduce_init(const char* name, const void* sendbuf, void* recvbuf, mcorecoll_raw_t count,
                                 mcorecoll_raw_t datatype, mcorecoll_raw_t op, mcorecoll_raw_t comm,
                                 mcorecoll_raw_t info, void* request);
int mcorecoll_raw_reduce_init(const char* name, const void* sendbuf, void* recvbuf, mcorecoll_raw_t count,
                              mcorecoll_raw_t datatype, mcorecoll_raw_t op, mcorecoll_raw_t root,
                              mcorecoll_raw_t comm, mcorecoll_raw_t info, void* request);
int mcorecoll_raw_allgather_init(const char* name, const void* sendbuf, mcorecoll_raw_t sendcount,
                                 mcorecoll_raw_t sendtype, void* recvbuf, mcorecoll_raw_t recvcount,
                                 mcorecoll_raw_t recvtype, mcorecoll_raw_t comm, mcorecoll_raw_t info,
                                 void* request);

#ifdef __cplusplus
}
#endif

#endif
