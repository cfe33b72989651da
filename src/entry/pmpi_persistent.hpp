// The MPI library's own persistent collectives, for the calls that go to PMPI: MPI-4's
// PMPI_X_init in MPICH, the pcollreq extension's PMPIX_X_init in Open MPI 4.1 (which its
// mpi.h does not declare).
#pragma once

#include <mpi.h>

#if !defined(MPICH_VERSION)
extern "C" {
int PMPIX_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* request);
int PMPIX_Bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request* request);
int PMPIX_Alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request);
int PMPIX_Allreduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm, MPI_Info info, MPI_Request* request);
int PMPIX_Reduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                      MPI_Comm comm, MPI_Info info, MPI_Request* request);
int PMPIX_Allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request);
}
#endif

namespace mcorecoll {

#if defined(MPICH_VERSION)
#define MCORECOLL_PMPI_INIT(name) PMPI_##name##_init
#else
#define MCORECOLL_PMPI_INIT(name) PMPIX_##name##_init
#endif

inline int pmpi_barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return MCORECOLL_PMPI_INIT(Barrier)(comm, info, request);
}
inline int pmpi_bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                           MPI_Request* request) {
  return MCORECOLL_PMPI_INIT(Bcast)(buffer, count, datatype, root, comm, info, request);
}
inline int pmpi_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                              int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                              MPI_Request* request) {
  return MCORECOLL_PMPI_INIT(Alltoall)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info,
                                       request);
}

inline int pmpi_allreduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                               MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return MCORECOLL_PMPI_INIT(Allreduce)(sendbuf, recvbuf, count, datatype, op, comm, info, request);
}
inline int pmpi_reduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                            int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return MCORECOLL_PMPI_INIT(Reduce)(sendbuf, recvbuf, count, datatype, op, root, comm, info, request);
}
inline int pmpi_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                               MPI_Request* request) {
  return MCORECOLL_PMPI_INIT(Allgather)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info,
                                        request);
}

#undef MCORECOLL_PMPI_INIT

}  // namespace mcorecoll
