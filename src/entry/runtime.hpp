// Process-wide state: the configuration, the per-communicator contexts cached as MPI
// attributes, and teardown from an attribute on MPI_COMM_SELF (run first by MPI_Finalize).
#pragma once

#include <mpi.h>

#include <cstddef>

namespace mcorecoll {

class CommContext;
struct Config;

// The configuration; on a settings error, says every problem and aborts the job through
// `comm`. Also makes sure the finalize hook is in place.
const Config& config_or_abort(MPI_Comm comm);

// The cached context of an intracommunicator or intercommunicator, built on first use
// (collective over `comm`).
CommContext& context_for(MPI_Comm comm, const Config& config);
// The context if one was built already, else null (no collective: for non-blocking calls).
CommContext* existing_context(MPI_Comm comm);
// The engine's (progress.cpp), under its lock: the context of a freed communicator whose last
// persistent request went.
void delete_released_context(CommContext* ctx);

// Stops the job after an error was said: waits a moment first, because launchers (MPICH's
// Hydra) can kill the job before they have forwarded the message. Does not return.
[[noreturn]] void stop_job(MPI_Comm comm);

// Called from our MPI_Finalize wrappers: registers the finalize hook if no collective did.
void prepare_finalize();

}  // namespace mcorecoll
