/* Completing one request with each of the MPI library's completion calls in turn, so that a
 * test that goes through the non-blocking collectives exercises every one of them (mcorecoll
 * intercepts them all for progress). Each method leaves *request at MPI_REQUEST_NULL and
 * returns the call's error code. */
#ifndef MCORECOLL_TEST_COMPLETE_H
#define MCORECOLL_TEST_COMPLETE_H

#include <mpi.h>

enum { kCompletionMethods = 9 };

static inline const char* completion_name(int method) {
  static const char* names[kCompletionMethods] = {"MPI_Wait",    "MPI_Test",    "MPI_Waitall",
                                                  "MPI_Testall", "MPI_Waitany", "MPI_Testany",
                                                  "MPI_Waitsome", "MPI_Testsome",
                                                  "MPI_Request_get_status"};
  return names[method % kCompletionMethods];
}

/* The request sits among MPI_REQUEST_NULLs, so that the array calls look past them. */
static inline int complete_request(MPI_Request* request, int method) {
  MPI_Request array[3] = {MPI_REQUEST_NULL, *request, MPI_REQUEST_NULL};
  MPI_Status status, statuses[3];
  int rc = MPI_SUCCESS, flag = 0, index = -1, outcount = 0, indices[3];
  switch (method % kCompletionMethods) {
    case 0: rc = MPI_Wait(request, &status); return rc;
    case 1:
      while (rc == MPI_SUCCESS && !flag) rc = MPI_Test(request, &flag, &status);
      return rc;
    case 2: rc = MPI_Waitall(3, array, statuses); break;
    case 3:
      while (rc == MPI_SUCCESS && !flag) rc = MPI_Testall(3, array, &flag, statuses);
      break;
    case 4: rc = MPI_Waitany(3, array, &index, &status); break;
    case 5:
      while (rc == MPI_SUCCESS && !flag) rc = MPI_Testany(3, array, &index, &flag, &status);
      break;
    case 6: rc = MPI_Waitsome(3, array, &outcount, indices, statuses); break;
    case 7:
      while (rc == MPI_SUCCESS && outcount == 0) rc = MPI_Testsome(3, array, &outcount, indices, statuses);
      break;
    case 8:
      /* Only looks; the request is then freed by a wait that must return at once. */
      while (rc == MPI_SUCCESS && !flag) rc = MPI_Request_get_status(*request, &flag, &status);
      if (rc == MPI_SUCCESS) rc = MPI_Wait(request, &status);
      return rc;
  }
  *request = array[1];
  return rc;
}

#endif
