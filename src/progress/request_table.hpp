// The requests mcorecoll hands out, inside the engine (progress.cpp) and the completion calls
// (completion.cpp); nothing else includes this.
//
// Every request of an operation of mcorecoll is a carrier: an inactive persistent send to
// MPI_PROC_NULL of the MPI library's own (8-20 ns to start and complete, against 45-60 ns for a
// generalized request, measured on the development VM). The completion calls recognise it.
// While the operation runs they keep it away from the MPI library (a wait steps the
// operation, a test says "not yet"). Once the operation is over, a call for ours alone (wait,
// test, the any and some calls) completes it itself, with an empty status; a call that must
// show it to the MPI library among the application's own requests (waitall, testall) starts
// the carrier, which completes at once, and the MPI library completes it like any request.
// Afterwards the application's handle is set to MPI_REQUEST_NULL (non-blocking) or left
// inactive (persistent), and a non-blocking operation's carrier goes back to a pool.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

#include "progress/operation.hpp"
#include "progress/progress.hpp"

namespace mcorecoll {

class CommContext;

enum class RecordState {
  inactive,  // persistent, not started (or completed)
  queued,    // in its communicator's queue, taking steps
  stepped,   // the other ranks need nothing more; finish() is left (it may call MPI)
  done,      // finished; its carrier is not started (a completion call of ours completes it)
  started,   // finished and its carrier started, for a completion call of the MPI library
};

struct Record {
  std::unique_ptr<Operation> op;
  CommContext* ctx = nullptr;
  MPI_Request carrier = MPI_REQUEST_NULL;  // the application's handle
  bool persistent = false;
  RecordState state = RecordState::inactive;
  bool freed = false;  // MPI_Request_free came before the end: the record goes when it ends
  int rc = MPI_SUCCESS;
  StartCount counted{};    // persistent: how each start is counted
  Record* next = nullptr;  // in its communicator's queue
  unsigned stalled = 0;    // steps in a row without an end, for ringing (progress_helper.hpp)
  std::uint64_t stalled_since_ns = 0;  // when the first of them was taken
};

// The engine's lock: queues, records, the table of handles and the carriers' pool. Held by
// this thread also marks it as inside the engine, so that the MPI library's progress hook
// does not come back into it from an MPI call the engine makes.
class EngineLock {
 public:
  EngineLock();
  explicit EngineLock(std::try_to_lock_t);
  ~EngineLock();
  bool owns() const { return lock_.owns_lock(); }
  EngineLock(const EngineLock&) = delete;
  EngineLock& operator=(const EngineLock&) = delete;

 private:
  std::unique_lock<std::mutex> lock_;
};

// Whether this thread holds the engine's lock.
bool inside_engine();

// Handles of ours the application holds: one load, for the completion calls' fast path.
int handles_out();

// Under the lock: the record of a handle of ours, or null.
Record* find_record(MPI_Request handle);
// Under the lock, in a thread that may call MPI: finishes a record whose steps are over. True
// when it is finished (done or started).
bool settle(Record* r);
// Under the lock: a finished record's carrier started (MPI_Start), for the MPI library's calls.
void start_carrier(Record* r);
// The same, after steps for r's communicator's queue (a wait for one request).
bool step_record(Record* r);
// Under the lock, after the MPI library's completion call completed r's carrier in `slot`:
// a non-blocking request's slot becomes MPI_REQUEST_NULL and its record goes; a persistent one
// becomes inactive. Returns the operation's error code.
int retire(Record* r, MPI_Request* slot);
// Under the lock: MPI_Request_free on a handle of ours.
int free_record(Record* r, MPI_Request* slot);
// Under the lock: MPI_Start on a persistent handle of ours.
int start_record(Record* r);

// A nudge to the MPI library's progress (a probe that matches nothing away), for loops that
// wait for our operations while the application's own requests may need the MPI library.
void nudge_mpi_progress();

}  // namespace mcorecoll
