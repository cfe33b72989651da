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

/* Only to make sure every rank takes part in the statistics at finalize; see runtime.hpp. */
MCORECOLL_EXPORT int MPI_Finalize(void) { return mcorecoll_raw_finalize(); }
