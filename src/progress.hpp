// The non-blocking operations of this process. Each is handed to the application as a
// generalized request (MPI_Grequest_start), so that it works in every completion call of the
// MPI library next to the application's own requests, and is completed (MPI_Grequest_complete)
// once its state machine (operation.hpp) says so. Operations wait in one queue per
// communicator: only the first of a queue takes steps, so that they keep the order in which
// the standard has every rank start them. Steps are given by progress_operations(), which the
// intercepted calls run (MCORECOLL_PROGRESS=calls), or a thread (MCORECOLL_PROGRESS=thread).
#pragma once

#include <mpi.h>

#include <memory>

#include "operation.hpp"

namespace mcorecoll {

struct Config;

// Queues `op` behind the communicator's earlier operations, gives it its first steps when it
// is first, and sets *request to its generalized request. Returns an MPI error code.
int start_operation(std::unique_ptr<Operation> op, const Config& config, MPI_Request* request);

// Whether any operation of this process is not complete yet: one load, for the intercepted
// calls' fast path.
bool operations_pending();
// Whether this rank has operations on the communicator that are not complete yet.
bool operations_pending_on(const CommContext& ctx);

// One round of steps for every queue. Returns at once when called from inside a step (a
// blocking wait there) or while another thread is at it.
void progress_operations();

// Gives steps, backing off between rounds, until this rank's operations on `ctx` are complete:
// before a blocking call on it (the operations share its state), and before its context goes.
void complete_operations_on(const CommContext& ctx);
// The same for every operation: MPI_Finalize, which then stops the progress thread.
void complete_all_operations();

// MPI_Request_free on one of our requests before it completed: the operation goes on (its
// peers need it), and the request is freed when it completes. True when `request` was ours
// (then *request is MPI_REQUEST_NULL).
bool free_pending_request(MPI_Request* request);

// Back-off between two rounds of a caller that waits for operations: spins while the node
// has a CPU per rank, else yields and naps (wait.hpp).
void progress_backoff(unsigned& polls);

}  // namespace mcorecoll
