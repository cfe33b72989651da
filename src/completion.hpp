// The MPI library's completion calls, intercepted for progress by calls: while non-blocking
// operations of mcorecoll are pending, each call first gives them steps, and the calls that
// block become loops of the matching test call and steps, so that the operations (also those
// of requests not in the call: their peers may be waiting for them) move while this rank
// waits. With nothing pending, each goes straight to PMPI after one load.
#pragma once

#include <mpi.h>

#include "progress.hpp"

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
// MPI_Request_free of a pending operation's request: the operation goes on and its request is
// freed when it completes (progress.hpp).
int request_free(MPI_Request* request);

// Loops `test()` (the MPI library's Fortran test call matching a wait call, which says in its
// result whether it completed), giving steps between tries.
template <typename Test>
void wait_by_testing(Test test) {
  for (unsigned polls = 0;; progress_backoff(polls)) {
    progress_operations();
    if (test()) return;
  }
}

}  // namespace mcorecoll
