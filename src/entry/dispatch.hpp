// What the C and Fortran entry points in wrappers/ call: the intercepted collectives, blocking,
// non-blocking and persistent. Each family's <family>_calls.cpp routes a call
// (call_decision.hpp) to its shared-memory algorithm or to PMPI, and counts it.
#pragma once

#include <mpi.h>

namespace mcorecoll {

int barrier(MPI_Comm comm);
int bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);
int alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
// The reductions and allgather, in their three forms.
int allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
           MPI_Comm comm);
int allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
              MPI_Datatype recvtype, MPI_Comm comm);
int iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
               MPI_Request* request);
int ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
            MPI_Comm comm, MPI_Request* request);
int iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request);
int allreduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Info info, MPI_Request* request);
int reduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm, MPI_Info info, MPI_Request* request);
int allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request);
// The non-blocking forms (the same routing, then progress.hpp's operations).
int ibarrier(MPI_Comm comm, MPI_Request* request);
int ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request* request);
int ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
              int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request);
// The persistent forms (MPI-4's MPI_X_init, Open MPI 4.1's MPIX_X_init): set up whole at
// initialization; MPI_Start/MPI_Startall start them (completion.hpp).
int barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* request);
int bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
               MPI_Request* request);
int alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request);
// Completes the non-blocking operations left (their requests freed early), then PMPI_Finalize
// (runtime.cpp).
int finalize();

}  // namespace mcorecoll
