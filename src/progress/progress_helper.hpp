// What keeps this process's operations moving when the application is away from mcorecoll's
// calls (progress.hpp says why): the MPI library's own progress hook, and the progress helper.
//
// The helper is a thread of mcorecoll that sleeps on this process's bell, a word in the node
// pool's header (node_pool.hpp). An operation of a peer that waits for one of this rank's
// steps for a while rings it (ring()); the helper then takes the steps of this process's
// operations for a few milliseconds and sleeps again. Below MPI_THREAD_MULTIPLE it calls no
// MPI function, which is legal at every thread level: its steps stop where an MPI call is
// needed, and what is left concerns only this rank's own completion, which its application's
// next call does. It never sleeps longer than a backstop of some milliseconds, rung or not
// (doc/design/progress.md says why).
//
// MCORECOLL_PROGRESS=thread makes the helper step without waiting for a bell while operations
// are pending (overlap for programs that compute between post and wait; it costs a CPU).
#pragma once

namespace mcorecoll {

class CommContext;
struct Config;

// Once per process, at the first non-blocking or persistent operation: the helper thread and,
// where the MPI library has one (Open MPI), the progress hook.
void start_progress_sources(const Config& config, const CommContext& ctx);
// At MPI_Finalize, after the last operation: the hook out, the helper stopped.
void stop_progress_sources();

// A step of this rank waits for node rank `node_rank` of the communicator: wakes that rank's
// helper if it sleeps (a load of its bell when it does not).
void ring(const CommContext& ctx, int node_rank);

// Polls a waiting loop spins before it yields: the setting, or 0 once an operation of an
// oversubscribed node was started.
unsigned progress_spin_polls();

// Whether this process can make the MPI calls of its operations while its application is
// blocked in some other call: the MPI library calls a progress hook of ours (Open MPI), or the
// helper may call MPI (MPI_THREAD_MULTIPLE). Non-blocking operations across nodes need it.
bool mpi_calls_while_blocked();

}  // namespace mcorecoll
