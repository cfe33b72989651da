// One rank's part of a non-blocking or persistent collective, as a state machine: every step
// does what it can without waiting (looks at flags, copies what is ready, tests a request of
// the MPI library) and says whether this rank's part is over as far as the other ranks are
// concerned. What is left then (unpacking into the user's buffer) is finish()'s.
//
// Steps come from the application's own MPI calls, from the MPI library's progress engine
// (Open MPI), or from the progress helper, a thread that may not call MPI below
// MPI_THREAD_MULTIPLE (progress_helper.hpp): a step told so stops where it would call MPI.
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

  // Starts an activation, in the application's thread (it may call MPI): packs what this rank
  // sends, resets the state. A persistent operation is begun again at every MPI_Start.
  virtual void begin() = 0;
  // Advances without waiting; true once no other rank needs anything more of this rank for
  // this activation (then rc is final). Operations of one communicator take steps one at a
  // time, in the order they were started (progress.hpp), so a step may use the communicator's
  // state as the blocking calls do. `may_call_mpi`: false where the step must not call MPI.
  virtual bool step(bool may_call_mpi) = 0;
  // The local end of an activation (unpacking), after step() said true; may call MPI.
  virtual void finish() {}
  // Its steps share nothing with the communicator's other operations (a request of the MPI
  // library's, which only tests it): the operations queued behind it step on while it waits,
  // so that a step it may not take (one that would call MPI, from the progress helper below
  // MPI_THREAD_MULTIPLE) holds up none of theirs.
  virtual bool independent() const { return false; }
  // A persistent operation whose every activation is made anew at its MPI_Start (a request of
  // a class still learning: entry/reissued_operation.hpp): prepare() makes it there, in the
  // application's thread and outside the engine's lock, since it routes and issues a call as
  // the application would; begin() follows. An error leaves the request inactive.
  virtual bool remade() const { return false; }
  virtual int prepare() { return MPI_SUCCESS; }

  CommContext& context() const { return ctx_; }
  int rc = MPI_SUCCESS;  // the error the request reports
  // The node rank whose step the last unfinished step waited for, or -1: the engine rings
  // that rank's progress helper when the wait goes on (progress_helper.hpp).
  int waiting_on = -1;

 protected:
  // Tests a request of the MPI library the operation started: true once it is complete, or
  // failed (then rc holds the error).
  bool test_request(MPI_Request& request) {
    int done = 0;
    const int tested = PMPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (tested != MPI_SUCCESS) rc = tested;
    return done != 0 || tested != MPI_SUCCESS;
  }
  // A step of an operation this one wraps (timed_operation.hpp, entry/reissued_operation.hpp):
  // its error and the rank it waited for become this one's.
  bool step_inner(Operation& inner, bool may_call_mpi) {
    inner.waiting_on = -1;
    const bool over = inner.step(may_call_mpi);
    rc = inner.rc;
    waiting_on = inner.waiting_on;
    return over;
  }
  // For a step that waits for node rank r: records it and returns false.
  bool wait_for_rank(int r) {
    waiting_on = r;
    return false;
  }

  CommContext& ctx_;
};

}  // namespace mcorecoll
