// The MPI library's completion calls and request calls, intercepted: for the requests of
// mcorecoll's operations (request_table.hpp says what they are) and for progress. With none
// of ours held, each goes straight to PMPI after one load (and the completion calls give
// pending operations a round of steps).
#pragma once

#include <mpi.h>

namespace mcorecoll {

int wait(MPI_Request* request, MPI_Status* status);
int test(MPI_Request* request, int* flag, MPI_Status* status);
int waitall(int count, MPI_Request requests[], MPI_Status statuses[]);
int testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]);
int waitany(int count, MPI_Request requests[], int* index, MPI_Status* status);
int testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status);
int waitsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]);
int testsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]);
int request_get_status(MPI_Request request, int* flag, MPI_Status* status);
// MPI_Request_free of one of ours before its end: the operation goes on (its peers need it)
// and goes when it ends.
int request_free(MPI_Request* request);
// MPI_Start and MPI_Startall: persistent requests of ours start their operation; others go
// to PMPI, in array order.
int start(MPI_Request* request);
int startall(int count, MPI_Request requests[]);

}  // namespace mcorecoll
