// Raw C entry arguments -> this build's MPI types, or untouched to the process's own MPI when
// it is not the MPI this library was built for.
#include <mpi.h>

#include <type_traits>

#include "entry/abi_guard.hpp"
#include "entry/dispatch.hpp"
#include "progress/completion.hpp"
#include "raw_abi.h"

namespace {

template <typename Handle>
Handle handle(mcorecoll_raw_t raw) {
  if constexpr (std::is_pointer_v<Handle>) return reinterpret_cast<Handle>(raw);
  else return static_cast<Handle>(raw);  // an int handle: the low bits of the register
}

int as_int(mcorecoll_raw_t raw) { return static_cast<int>(raw); }

// Calls the next definition of `name` with the same raw arguments.
template <typename... Args>
int forward(const char* name, Args... args) {
  using Fn = int (*)(Args...);
  static_assert(sizeof...(Args) <= 10, "entry points have at most 10 arguments");
  auto fn = reinterpret_cast<Fn>(mcorecoll::next_definition(name));
  return fn ? fn(args...) : MPI_ERR_INTERN;
}

}  // namespace

extern "C" {

int mcorecoll_raw_barrier(mcorecoll_raw_t comm) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Barrier", comm);
  return mcorecoll::barrier(handle<MPI_Comm>(comm));
}

int mcorecoll_raw_bcast(void* buffer, mcorecoll_raw_t count, mcorecoll_raw_t datatype,
                        mcorecoll_raw_t root, mcorecoll_raw_t comm) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Bcast", buffer, count, datatype, root, comm);
  return mcorecoll::bcast(buffer, as_int(count), handle<MPI_Datatype>(datatype), as_int(root),
                          handle<MPI_Comm>(comm));
}

int mcorecoll_raw_alltoall(const void* sendbuf, mcorecoll_raw_t sendcount,
                           mcorecoll_raw_t sendtype, void* recvbuf, mcorecoll_raw_t recvcount,
                           mcorecoll_raw_t recvtype, mcorecoll_raw_t comm) {
  if (mcorecoll::foreign_mpi())
    return forward("MPI_Alltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  return mcorecoll::alltoall(sendbuf, as_int(sendcount), handle<MPI_Datatype>(sendtype), recvbuf,
                             as_int(recvcount), handle<MPI_Datatype>(recvtype),
                             handle<MPI_Comm>(comm));
}

int mcorecoll_raw_allreduce(const void* sendbuf, void* recvbuf, mcorecoll_raw_t count,
                            mcorecoll_raw_t datatype, mcorecoll_raw_t op, mcorecoll_raw_t comm) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Allreduce", sendbuf, recvbuf, count, datatype, op, comm);
  return mcorecoll::allreduce(sendbuf, recvbuf, as_int(count), handle<MPI_Datatype>(datatype), handle<MPI_Op>(op),
                              handle<MPI_Comm>(comm));
}

int mcorecoll_raw_reduce(const void* sendbuf, void* recvbuf, mcorecoll_raw_t count,
                         mcorecoll_raw_t datatype, mcorecoll_raw_t op, mcorecoll_raw_t root,
                         mcorecoll_raw_t comm) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Reduce", sendbuf, recvbuf, count, datatype, op, root, comm);
  return mcorecoll::reduce(sendbuf, recvbuf, as_int(count), handle<MPI_Datatype>(datatype), handle<MPI_Op>(op),
                           as_int(root), handle<MPI_Comm>(comm));
}

int mcorecoll_raw_allgather(const void* sendbuf, mcorecoll_raw_t sendcount,
                            mcorecoll_raw_t sendtype, void* recvbuf, mcorecoll_raw_t recvcount,
                            mcorecoll_raw_t recvtype, mcorecoll_raw_t comm) {
  if (mcorecoll::foreign_mpi())
    return forward("MPI_Allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  return mcorecoll::allgather(sendbuf, as_int(sendcount), handle<MPI_Datatype>(sendtype), recvbuf,
                              as_int(recvcount), handle<MPI_Datatype>(recvtype), handle<MPI_Comm>(comm));
}

int mcorecoll_raw_iallreduce(const void* sendbuf, void* recvbuf, mcorecoll_raw_t count,
                             mcorecoll_raw_t datatype, mcorecoll_raw_t op, mcorecoll_raw_t comm, void* request) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Iallreduce", sendbuf, recvbuf, count, datatype, op, comm, request);
  return mcorecoll::iallreduce(sendbuf, recvbuf, as_int(count), handle<MPI_Datatype>(datatype), handle<MPI_Op>(op),
                               handle<MPI_Comm>(comm), static_cast<MPI_Request*>(request));
}

int mcorecoll_raw_ireduce(const void* sendbuf, void* recvbuf, mcorecoll_raw_t count,
                          mcorecoll_raw_t datatype, mcorecoll_raw_t op, mcorecoll_raw_t root,
                          mcorecoll_raw_t comm, void* request) {
  if (mcorecoll::foreign_mpi())
    return forward("MPI_Ireduce", sendbuf, recvbuf, count, datatype, op, root, comm, request);
  return mcorecoll::ireduce(sendbuf, recvbuf, as_int(count), handle<MPI_Datatype>(datatype), handle<MPI_Op>(op),
                            as_int(root), handle<MPI_Comm>(comm), static_cast<MPI_Request*>(request));
}

int mcorecoll_raw_iallgather(const void* sendbuf, mcorecoll_raw_t sendcount,
                             mcorecoll_raw_t sendtype, void* recvbuf, mcorecoll_raw_t recvcount,
                             mcorecoll_raw_t recvtype, mcorecoll_raw_t comm, void* request) {
  if (mcorecoll::foreign_mpi())
    return forward("MPI_Iallgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
  return mcorecoll::iallgather(sendbuf, as_int(sendcount), handle<MPI_Datatype>(sendtype), recvbuf,
                               as_int(recvcount), handle<MPI_Datatype>(recvtype), handle<MPI_Comm>(comm),
                               static_cast<MPI_Request*>(request));
}

int mcorecoll_raw_ibarrier(mcorecoll_raw_t comm, void* request) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Ibarrier", comm, request);
  return mcorecoll::ibarrier(handle<MPI_Comm>(comm), static_cast<MPI_Request*>(request));
}

int mcorecoll_raw_ibcast(void* buffer, mcorecoll_raw_t count, mcorecoll_raw_t datatype,
                         mcorecoll_raw_t root, mcorecoll_raw_t comm, void* request) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Ibcast", buffer, count, datatype, root, comm, request);
  return mcorecoll::ibcast(buffer, as_int(count), handle<MPI_Datatype>(datatype), as_int(root),
                           handle<MPI_Comm>(comm), static_cast<MPI_Request*>(request));
}

int mcorecoll_raw_ialltoall(const void* sendbuf, mcorecoll_raw_t sendcount,
                            mcorecoll_raw_t sendtype, void* recvbuf, mcorecoll_raw_t recvcount,
                            mcorecoll_raw_t recvtype, mcorecoll_raw_t comm, void* request) {
  if (mcorecoll::foreign_mpi())
    return forward("MPI_Ialltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
  return mcorecoll::ialltoall(sendbuf, as_int(sendcount), handle<MPI_Datatype>(sendtype), recvbuf,
                              as_int(recvcount), handle<MPI_Datatype>(recvtype),
                              handle<MPI_Comm>(comm), static_cast<MPI_Request*>(request));
}

int mcorecoll_raw_wait(void* request, void* status) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Wait", request, status);
  return mcorecoll::wait(static_cast<MPI_Request*>(request), static_cast<MPI_Status*>(status));
}

int mcorecoll_raw_test(void* request, void* flag, void* status) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Test", request, flag, status);
  return mcorecoll::test(static_cast<MPI_Request*>(request), static_cast<int*>(flag),
                         static_cast<MPI_Status*>(status));
}

int mcorecoll_raw_waitall(mcorecoll_raw_t count, void* requests, void* statuses) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Waitall", count, requests, statuses);
  return mcorecoll::waitall(as_int(count), static_cast<MPI_Request*>(requests),
                            static_cast<MPI_Status*>(statuses));
}

int mcorecoll_raw_testall(mcorecoll_raw_t count, void* requests, void* flag, void* statuses) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Testall", count, requests, flag, statuses);
  return mcorecoll::testall(as_int(count), static_cast<MPI_Request*>(requests), static_cast<int*>(flag),
                            static_cast<MPI_Status*>(statuses));
}

int mcorecoll_raw_waitany(mcorecoll_raw_t count, void* requests, void* index, void* status) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Waitany", count, requests, index, status);
  return mcorecoll::waitany(as_int(count), static_cast<MPI_Request*>(requests), static_cast<int*>(index),
                            static_cast<MPI_Status*>(status));
}

int mcorecoll_raw_testany(mcorecoll_raw_t count, void* requests, void* index, void* flag, void* status) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Testany", count, requests, index, flag, status);
  return mcorecoll::testany(as_int(count), static_cast<MPI_Request*>(requests), static_cast<int*>(index),
                            static_cast<int*>(flag), static_cast<MPI_Status*>(status));
}

int mcorecoll_raw_waitsome(mcorecoll_raw_t incount, void* requests, void* outcount, void* indices,
                           void* statuses) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Waitsome", incount, requests, outcount, indices, statuses);
  return mcorecoll::waitsome(as_int(incount), static_cast<MPI_Request*>(requests), static_cast<int*>(outcount),
                             static_cast<int*>(indices), static_cast<MPI_Status*>(statuses));
}

int mcorecoll_raw_testsome(mcorecoll_raw_t incount, void* requests, void* outcount, void* indices,
                           void* statuses) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Testsome", incount, requests, outcount, indices, statuses);
  return mcorecoll::testsome(as_int(incount), static_cast<MPI_Request*>(requests), static_cast<int*>(outcount),
                             static_cast<int*>(indices), static_cast<MPI_Status*>(statuses));
}

int mcorecoll_raw_request_get_status(mcorecoll_raw_t request, void* flag, void* status) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Request_get_status", request, flag, status);
  return mcorecoll::request_get_status(handle<MPI_Request>(request), static_cast<int*>(flag),
                                       static_cast<MPI_Status*>(status));
}

int mcorecoll_raw_request_free(void* request) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Request_free", request);
  return mcorecoll::request_free(static_cast<MPI_Request*>(request));
}

int mcorecoll_raw_start(void* request) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Start", request);
  return mcorecoll::start(static_cast<MPI_Request*>(request));
}

int mcorecoll_raw_startall(mcorecoll_raw_t count, void* requests) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Startall", count, requests);
  return mcorecoll::startall(as_int(count), static_cast<MPI_Request*>(requests));
}

int mcorecoll_raw_barrier_init(const char* name, mcorecoll_raw_t comm, mcorecoll_raw_t info, void* request) {
  if (mcorecoll::foreign_mpi()) return forward(name, comm, info, request);
  return mcorecoll::barrier_init(handle<MPI_Comm>(comm), handle<MPI_Info>(info), static_cast<MPI_Request*>(request));
}

int mcorecoll_raw_bcast_init(const char* name, void* buffer, mcorecoll_raw_t count, mcorecoll_raw_t datatype,
                             mcorecoll_raw_t root, mcorecoll_raw_t comm, mcorecoll_raw_t info, void* request) {
  if (mcorecoll::foreign_mpi()) return forward(name, buffer, count, datatype, root, comm, info, request);
  return mcorecoll::bcast_init(buffer, as_int(count), handle<MPI_Datatype>(datatype), as_int(root),
                               handle<MPI_Comm>(comm), handle<MPI_Info>(info), static_cast<MPI_Request*>(request));
}

int mcorecoll_raw_alltoall_init(const char* name, const void* sendbuf, mcorecoll_raw_t sendcount,
                                mcorecoll_raw_t sendtype, void* recvbuf, mcorecoll_raw_t recvcount,
                                mcorecoll_raw_t recvtype, mcorecoll_raw_t comm, mcorecoll_raw_t info,
                                void* request) {
  if (mcorecoll::foreign_mpi())
    return forward(name, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request);
  return mcorecoll::alltoall_init(sendbuf, as_int(sendcount), handle<MPI_Datatype>(sendtype), recvbuf,
                                  as_int(recvcount), handle<MPI_Datatype>(recvtype), handle<MPI_Comm>(comm),
                                  handle<MPI_Info>(info), static_cast<MPI_Request*>(request));
}

int mcorecoll_raw_allreduce_init(const char* name, const void* sendbuf, void* recvbuf, mcorecoll_raw_t count,
                                 mcorecoll_raw_t datatype, mcorecoll_raw_t op, mcorecoll_raw_t comm,
                                 mcorecoll_raw_t info, void* request) {
  if (mcorecoll::foreign_mpi()) return forward(name, sendbuf, recvbuf, count, datatype, op, comm, info, request);
  return mcorecoll::allreduce_init(sendbuf, recvbuf, as_int(count), handle<MPI_Datatype>(datatype),
                                   handle<MPI_Op>(op), handle<MPI_Comm>(comm), handle<MPI_Info>(info),
                                   static_cast<MPI_Request*>(request));
}

int mcorecoll_raw_reduce_init(const char* name, const void* sendbuf, void* recvbuf, mcorecoll_raw_t count,
                              mcorecoll_raw_t datatype, mcorecoll_raw_t op, mcorecoll_raw_t root,
                              mcorecoll_raw_t comm, mcorecoll_raw_t info, void* request) {
  if (mcorecoll::foreign_mpi())
    return forward(name, sendbuf, recvbuf, count, datatype, op, root, comm, info, request);
  return mcorecoll::reduce_init(sendbuf, recvbuf, as_int(count), handle<MPI_Datatype>(datatype), handle<MPI_Op>(op),
                                as_int(root), handle<MPI_Comm>(comm), handle<MPI_Info>(info),
                                static_cast<MPI_Request*>(request));
}

int mcorecoll_raw_allgather_init(const char* name, const void* sendbuf, mcorecoll_raw_t sendcount,
                                 mcorecoll_raw_t sendtype, void* recvbuf, mcorecoll_raw_t recvcount,
                                 mcorecoll_raw_t recvtype, mcorecoll_raw_t comm, mcorecoll_raw_t info,
                                 void* request) {
  if (mcorecoll::foreign_mpi())
    return forward(name, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request);
  return mcorecoll::allgather_init(sendbuf, as_int(sendcount), handle<MPI_Datatype>(sendtype), recvbuf,
                                   as_int(recvcount), handle<MPI_Datatype>(recvtype), handle<MPI_Comm>(comm),
                                   handle<MPI_Info>(info), static_cast<MPI_Request*>(request));
}

int mcorecoll_raw_finalize(void) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Finalize");
  return mcorecoll::finalize();
}

}  // extern "C"
