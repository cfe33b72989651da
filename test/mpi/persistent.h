/* The persistent collectives by one name in every MPI: MPI-4's MPI_X_init (MPICH 4, Open MPI
 * 5), or the pcollreq extension's MPIX_X_init where the MPI library has only that (Open MPI 4.1,
 * declared in mpi-ext.h; meson sets MCORECOLL_PERSISTENT_MPIX from the headers);
 * PMPI_PERSISTENT_X_INIT the MPI library's own, for the tests that compare with it. */
#ifndef MCORECOLL_TEST_PERSISTENT_H
#define MCORECOLL_TEST_PERSISTENT_H

#include <mpi.h>

#if MCORECOLL_PERSISTENT_MPIX
#include <mpi-ext.h>
#define PERSISTENT_BARRIER_INIT MPIX_Barrier_init
#define PERSISTENT_BCAST_INIT MPIX_Bcast_init
#define PERSISTENT_ALLTOALL_INIT MPIX_Alltoall_init
#define PERSISTENT_ALLREDUCE_INIT MPIX_Allreduce_init
#define PERSISTENT_REDUCE_INIT MPIX_Reduce_init
#define PERSISTENT_ALLGATHER_INIT MPIX_Allgather_init
#define PERSISTENT_ALLTOALLV_INIT MPIX_Alltoallv_init
#define PERSISTENT_ALLGATHERV_INIT MPIX_Allgatherv_init
#define PERSISTENT_GATHER_INIT MPIX_Gather_init
#define PERSISTENT_GATHERV_INIT MPIX_Gatherv_init
#define PERSISTENT_SCATTER_INIT MPIX_Scatter_init
#define PERSISTENT_SCATTERV_INIT MPIX_Scatterv_init
#define PERSISTENT_REDUCE_SCATTER_BLOCK_INIT MPIX_Reduce_scatter_block_init
#define PERSISTENT_REDUCE_SCATTER_INIT MPIX_Reduce_scatter_init
#define PERSISTENT_SCAN_INIT MPIX_Scan_init
#define PERSISTENT_EXSCAN_INIT MPIX_Exscan_init
#define PMPI_PERSISTENT_ALLTOALLV_INIT PMPIX_Alltoallv_init
#define PMPI_PERSISTENT_GATHERV_INIT PMPIX_Gatherv_init
#define PMPI_PERSISTENT_SCATTERV_INIT PMPIX_Scatterv_init
#else
#define PERSISTENT_BARRIER_INIT MPI_Barrier_init
#define PERSISTENT_BCAST_INIT MPI_Bcast_init
#define PERSISTENT_ALLTOALL_INIT MPI_Alltoall_init
#define PERSISTENT_ALLREDUCE_INIT MPI_Allreduce_init
#define PERSISTENT_REDUCE_INIT MPI_Reduce_init
#define PERSISTENT_ALLGATHER_INIT MPI_Allgather_init
#define PERSISTENT_ALLTOALLV_INIT MPI_Alltoallv_init
#define PERSISTENT_ALLGATHERV_INIT MPI_Allgatherv_init
#define PERSISTENT_GATHER_INIT MPI_Gather_init
#define PERSISTENT_GATHERV_INIT MPI_Gatherv_init
#define PERSISTENT_SCATTER_INIT MPI_Scatter_init
#define PERSISTENT_SCATTERV_INIT MPI_Scatterv_init
#define PERSISTENT_REDUCE_SCATTER_BLOCK_INIT MPI_Reduce_scatter_block_init
#define PERSISTENT_REDUCE_SCATTER_INIT MPI_Reduce_scatter_init
#define PERSISTENT_SCAN_INIT MPI_Scan_init
#define PERSISTENT_EXSCAN_INIT MPI_Exscan_init
#define PMPI_PERSISTENT_ALLTOALLV_INIT PMPI_Alltoallv_init
#define PMPI_PERSISTENT_GATHERV_INIT PMPI_Gatherv_init
#define PMPI_PERSISTENT_SCATTERV_INIT PMPI_Scatterv_init
#endif

#endif
