// The three intercepted collectives: route each call to a shared-memory algorithm or to PMPI,
// and count it. Called by the C and Fortran entry points in wrappers/.
#pragma once

#include <mpi.h>

namespace mcorecoll {

int barrier(MPI_Comm comm);
int bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);
int alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int finalize();

}  // namespace mcorecoll
