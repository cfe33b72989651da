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

// Creates the context's shared segment on first use (collective over the communicator), and
// probes single copy. False, with one warning per process, when shared memory cannot be had:
// the caller goes to PMPI.
bool ensure_shm(CommContext& ctx, const Config& config);

// Bytes of each rank's alltoall staging area: MCORECOLL_ALLTOALL_STAGE_BYTES in whole pages.
std::size_t staging_area_bytes(const Config& config);

// Whether every rank may use single copy on this communicator; probed on first use
// (collective over the communicator), said once in verbose mode when refused.
bool single_copy_allowed(CommContext& ctx, const Config& config);

// Stops the job after an error was said: waits a moment first, because launchers (MPICH's
// Hydra) can kill the job before they have forwarded the message. Does not return.
[[noreturn]] void stop_job(MPI_Comm comm);

// Called from our MPI_Finalize wrappers: registers the finalize hook if no collective did.
void prepare_finalize();

}  // namespace mcorecoll
