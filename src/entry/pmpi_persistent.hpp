// The MPI library's own persistent collectives, for the calls that go to PMPI: MPI-4's
// PMPI_X_init (MPICH 4, Open MPI 5), or the pcollreq extension's PMPIX_X_init where the MPI
// library has only that (Open MPI 4.1, whose mpi.h does not declare them). Meson finds which
// from the MPI library's headers and sets MCORECOLL_PERSISTENT_MPIX.
#pragma once

#include <mpi.h>

#if MCORECOLL_PERSISTENT_MPIX
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
int PMPIX_Alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                         void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Info info, MPI_Request* request);
int PMPIX_Allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                          const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Info info, MPI_Request* request);
int PMPIX_Gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request);
int PMPIX_Gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                       const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                       MPI_Info info, MPI_Request* request);
int PMPIX_Scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request);
int PMPIX_Scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                        void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request* request);
int PMPIX_Reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                                    MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request);
int PMPIX_Reduce_scatter_init(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                              MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request);
int PMPIX_Scan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    MPI_Info info, MPI_Request* request);
int PMPIX_Exscan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                      MPI_Info info, MPI_Request* request);
}
#endif

namespace mcorecoll {

#if MCORECOLL_PERSISTENT_MPIX
#define MCORECOLL_PMPI_INIT(name) PMPIX_##name##_init
#else
#define MCORECOLL_PMPI_INIT(name) PMPI_##name##_init
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

// The collectives that go to PMPI in their persistent form (node_only(): their blocking form
// alone takes the node machinery): the MPI library's own, as the application called it.
inline int pmpi_alltoallv_init(const void* sendbuf, const int* sendcounts, const int* sdispls, MPI_Datatype sendtype,
                               void* recvbuf, const int* recvcounts, const int* rdispls, MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return MCORECOLL_PMPI_INIT(Alltoallv)(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                                        recvtype, comm, info, request);
}
inline int pmpi_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                const int* recvcounts, const int* displs, MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Info info, MPI_Request* request) {
  return MCORECOLL_PMPI_INIT(Allgatherv)(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                                         info, request);
}
inline int pmpi_gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return MCORECOLL_PMPI_INIT(Gather)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info,
                                     request);
}
inline int pmpi_gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                             const int* recvcounts, const int* displs, MPI_Datatype recvtype, int root, MPI_Comm comm,
                             MPI_Info info, MPI_Request* request) {
  return MCORECOLL_PMPI_INIT(Gatherv)(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                                      comm, info, request);
}
inline int pmpi_scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                             MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return MCORECOLL_PMPI_INIT(Scatter)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info,
                                      request);
}
inline int pmpi_scatterv_init(const void* sendbuf, const int* sendcounts, const int* displs, MPI_Datatype sendtype,
                              void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                              MPI_Info info, MPI_Request* request) {
  return MCORECOLL_PMPI_INIT(Scatterv)(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                                       comm, info, request);
}
inline int pmpi_reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                                          MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return MCORECOLL_PMPI_INIT(Reduce_scatter_block)(sendbuf, recvbuf, recvcount, datatype, op, comm, info, request);
}
inline int pmpi_reduce_scatter_init(const void* sendbuf, void* recvbuf, const int* recvcounts, MPI_Datatype datatype,
                                    MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return MCORECOLL_PMPI_INIT(Reduce_scatter)(sendbuf, recvbuf, recvcounts, datatype, op, comm, info, request);
}
inline int pmpi_scan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return MCORECOLL_PMPI_INIT(Scan)(sendbuf, recvbuf, count, datatype, op, comm, info, request);
}
inline int pmpi_exscan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return MCORECOLL_PMPI_INIT(Exscan)(sendbuf, recvbuf, count, datatype, op, comm, info, request);
}

#undef MCORECOLL_PMPI_INIT

}  // namespace mcorecoll
