// One rank's part of a non-blocking collective, as a state machine: every step does what it
// can without waiting (looks at flags, copies what is ready, tests a request of the MPI
// library) and says whether this rank's part is complete.
#pragma once

#include <mpi.h>

namespace mcorecoll {

class CommContext;

class Operation {
 public:
  explicit Operation(CommContext& ctx) : ctx_(ctx) {}
  virtual ~Operation() = default;
  Operation(const Operation&) = delete;
  Operation& operator=(const Operation&) = delete;

  // Advances without waiting; true once this rank's part is complete (then rc is final).
  // Operations of one communicator take steps one at a time, in the order they were started
  // (progress.hpp), so a step may use the communicator's state as the blocking calls do.
  virtual bool step() = 0;

  CommContext& context() const { return ctx_; }
  int rc = MPI_SUCCESS;  // the error the request reports

 protected:
  // Tests a request of the MPI library the operation started: true once it is complete, or
  // failed (then rc holds the error).
  bool test_request(MPI_Request& request) {
    int done = 0;
    const int tested = PMPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (tested != MPI_SUCCESS) rc = tested;
    return done != 0 || tested != MPI_SUCCESS;
  }

  CommContext& ctx_;
};

}  // namespace mcorecoll
