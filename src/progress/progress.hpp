// The non-blocking and persistent operations of this process (operation.hpp) and their
// progress. Operations wait in one queue per communicator, and only the first of a queue
// takes steps, so that they keep the order in which the standard has every rank start them.
//
// The progress promise: an operation completes while a peer is blocked in any MPI call,
// intercepted or not, at any thread level. Steps come from:
//  - the application's intercepted calls (every completion call, every collective);
//  - the MPI library's own progress engine where it lets a library hook in (Open MPI's
//    opal_progress callbacks: any blocking call of Open MPI steps the operations);
//  - the progress helper, a thread that sleeps until a peer rings its bell because it waits
//    for this rank's step, then takes the steps that need no MPI call (legal at every thread
//    level; progress_helper.hpp). What needs MPI (starting a request's carrier, unpacking)
//    concerns only this rank and waits for its own next call.
// The requests themselves: request_table.hpp.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <memory>

#include "decisions/collective.hpp"

#include "progress/operation.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// A non-blocking operation: begins `op`, queues it behind the communicator's earlier ones,
// gives it its first steps and sets *request to its handle. Returns an MPI error code.
int post_operation(std::unique_ptr<Operation> op, const Config& config, MPI_Request* request);
// A persistent operation: an inactive request, started by MPI_Start. Each start is counted in
// the statistics as `counted` says.
struct StartCount {
  Collective collective;
  int path;
  std::uint64_t bytes;
  bool on;
};
int make_persistent_request(std::unique_ptr<Operation> op, const Config& config, MPI_Request* request,
                            const StartCount& counted);

// Whether any operation of this process is queued (a peer may need its steps): one load.
bool operations_pending();
// No operation of this process is queued or unsettled: a blocking call of the MPI library
// needs none of this process's operations completed first (entry/fast_handoff.hpp).
bool engine_idle();
// Whether this rank has operations queued or unfinished on the communicator.
bool operations_pending_on(const CommContext& ctx);

// One round of steps for every queue and, where `may_call_mpi` and `settle`, the local ends
// of the operations whose steps are over (finish(), starting their carriers). Returns at once
// when this thread is inside the engine already or another thread is at it. True when any
// operation ended its steps.
bool progress_operations(bool may_call_mpi = true, bool settle = true);
// Whether a step of the last round of progress_operations() waited for a peer's step (rather
// than for an MPI call it may not make, or a request of the MPI library).
bool last_round_waited_for_peer();

// Gives steps, backing off between rounds, until this rank's operations on `ctx` have ended
// their steps and finished: before a blocking call on it (they share its state), and before
// its context goes.
void complete_operations_on(const CommContext& ctx);
// MPI_Comm_free of a communicator whose persistent requests still use its context: the context
// is marked to go with the last of them (set_released_context_deleter()), and true; false
// where none does (the caller lets it go now).
bool kept_for_persistent_requests(CommContext& ctx);
// Work that must not run while this thread holds the engine's lock: at once outside it, else
// once the application's thread has left it (run_deferred()). A request of the MPI library's
// that an operation completes or frees there may free its communicator (MPICH frees a
// communicator the application freed with its last request), and the communicator's callback
// releases its context, which takes the lock.
void after_engine(std::function<void()> work);
// The work after_engine() left, done; called where the application's thread has left the lock.
void run_deferred();
// Whether ctx's communicator was freed and its context is kept for its persistent requests:
// no call may name the communicator any more.
bool context_released(CommContext& ctx);
// A context goes: out of the engine's lists (its operations are complete).
void forget_context(CommContext& ctx);
// Who deletes the context of a freed communicator once its last persistent request went (the
// owner of the contexts, entry/runtime.cpp, above the engine, registers itself; under the
// engine's lock).
void set_released_context_deleter(void (*deleter)(CommContext* ctx));
// The same for every operation, then the requests still held are let go: MPI_Finalize.
void complete_all_operations();

// Back-off between two rounds of a caller that waits for operations: spins while the node
// has a CPU per rank, else yields and naps (wait.hpp).
void progress_backoff(unsigned& polls);

}  // namespace mcorecoll
