/* Defects of the MPI libraries that the tests work around, each by the releases it was found in
 * (doc/mpi-defects.md). Re-checked natively by tools/mpi-defects/recheck.sh: a work-around
 * applies only where its defect is. */
#ifndef MCORECOLL_TEST_MPI_DEFECTS_H
#define MCORECOLL_TEST_MPI_DEFECTS_H

#include <mpi.h>

#if defined(MPICH_NUMVERSION)
/* MPICH 4.0.2: MPI_Reduce with MPI_IN_PLACE at a root other than 0 crashes above 2 KiB, and
 * MPI_Allgather_init delivers the other ranks' blocks at the first start only. Both right in
 * 4.2.1 (np 2, 3 and 4). */
#define MPICH_BEFORE_4_2 (MPICH_NUMVERSION < 40200000)
#else
#define MPICH_BEFORE_4_2 0
#endif
#define DEFECT_REDUCE_IN_PLACE_ROOT MPICH_BEFORE_4_2
#define DEFECT_ALLGATHER_INIT MPICH_BEFORE_4_2
/* MPICH (4.0.2; 4.2.1 not checked): MPI_Exscan refuses a null receive buffer at rank 0, where
 * the standard makes it not significant ("Null buffer pointer"). */
#if defined(MPICH_NUMVERSION)
#define DEFECT_EXSCAN_NULL_RECVBUF 1
#else
#define DEFECT_EXSCAN_NULL_RECVBUF 0
#endif

/* Open MPI 5.0.7: its gathering collectives across hosts deliver wrong or swapped blocks between
 * a type and its twin, and on communicators whose rank order is not the world's (4.1.4 right). */
#if defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION >= 5
#define DEFECT_GATHERING_ACROSS_HOSTS 1
#else
#define DEFECT_GATHERING_ACROSS_HOSTS 0
#endif

/* Whether the world spans more than one node, for the defects across hosts. Equal on every rank
 * without an exchange: a node holding the whole world holds every rank. Collective. */
static inline int world_across_hosts(void) {
  int world_size = 0, node_size = 0;
  MPI_Comm node;
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &node_size);
  MPI_Comm_free(&node);
  return node_size < world_size;
}

#endif
