#include "completion.hpp"

namespace mcorecoll {
namespace {

// Loops `test` (a PMPI test call that sets *done) with steps for the pending operations until
// it reports completion or an error.
template <typename Test>
int wait_with_progress(Test test) {
  int rc = MPI_SUCCESS;
  wait_by_testing([&] {
    bool done = false;
    rc = test(&done);
    return done || (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS);
  });
  return rc;
}

}  // namespace

int wait(MPI_Request* request, MPI_Status* status) {
  if (!operations_pending()) return PMPI_Wait(request, status);
  return wait_with_progress([&](bool* done) {
    int flag = 0;
    const int rc = PMPI_Test(request, &flag, status);
    *done = flag != 0;
    return rc;
  });
}

int test(MPI_Request* request, int* flag, MPI_Status* status) {
  progress_operations();
  return PMPI_Test(request, flag, status);
}

int waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  if (!operations_pending()) return PMPI_Waitall(count, requests, statuses);
  return wait_with_progress([&](bool* done) {
    int flag = 0;
    const int rc = PMPI_Testall(count, requests, &flag, statuses);
    *done = flag != 0;
    return rc;
  });
}

int testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  progress_operations();
  return PMPI_Testall(count, requests, flag, statuses);
}

int waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  if (!operations_pending()) return PMPI_Waitany(count, requests, index, status);
  return wait_with_progress([&](bool* done) {
    int flag = 0;
    const int rc = PMPI_Testany(count, requests, index, &flag, status);
    *done = flag != 0;
    return rc;
  });
}

int testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  progress_operations();
  return PMPI_Testany(count, requests, index, flag, status);
}

int waitsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  if (!operations_pending()) return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
  return wait_with_progress([&](bool* done) {
    const int rc = PMPI_Testsome(incount, requests, outcount, indices, statuses);
    *done = *outcount != 0;  // some completed, or MPI_UNDEFINED: no active request
    return rc;
  });
}

int testsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  progress_operations();
  return PMPI_Testsome(incount, requests, outcount, indices, statuses);
}

int request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  progress_operations();
  return PMPI_Request_get_status(request, flag, status);
}

int request_free(MPI_Request* request) {
  if (free_pending_request(request)) return MPI_SUCCESS;
  return PMPI_Request_free(request);
}

}  // namespace mcorecoll
