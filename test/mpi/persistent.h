/* The persistent collectives by one name in both MPIs: MPI-4's MPI_X_init (MPICH 4.0), the
 * pcollreq extension's MPIX_X_init (Open MPI 4.1, declared in mpi-ext.h). */
#ifndef MCORECOLL_TEST_PERSISTENT_H
#define MCORECOLL_TEST_PERSISTENT_H

#include <mpi.h>

#if defined(OPEN_MPI)
#include <mpi-ext.h>
#define PERSISTENT_BARRIER_INIT MPIX_Barrier_init
#define PERSISTENT_BCAST_INIT MPIX_Bcast_init
#define PERSISTENT_ALLTOALL_INIT MPIX_Alltoall_init
#define PERSISTENT_ALLREDUCE_INIT MPIX_Allreduce_init
#define PERSISTENT_REDUCE_INIT MPIX_Reduce_init
#define PERSISTENT_ALLGATHER_INIT MPIX_Allgather_init
#else
#define PERSISTENT_BARRIER_INIT MPI_Barrier_init
#define PERSISTENT_BCAST_INIT MPI_Bcast_init
#define PERSISTENT_ALLTOALL_INIT MPI_Alltoall_init
#define PERSISTENT_ALLREDUCE_INIT MPI_Allreduce_init
#define PERSISTENT_REDUCE_INIT MPI_Reduce_init
#define PERSISTENT_ALLGATHER_INIT MPI_Allgather_init
#endif

#endif
