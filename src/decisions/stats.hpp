// Per-path call and byte counters, reported at finalize by MCORECOLL_STATS=1.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

#include "decisions/collective.hpp"

namespace mcorecoll {

// The form of a call, counted apart: "bcast", "ibcast" (non-blocking), "bcast_init"
// (persistent: every MPI_Start of it counts as a call).
enum class CallKind { blocking = 0, nonblocking = 1, persistent = 2 };
constexpr int kCallKinds = 3;

void count_call(Collective c, int path, std::uint64_t bytes, CallKind kind = CallKind::blocking);
// The collectives mcorecoll hands on untouched (entry/forwarded.hpp): their names, by index,
// given once by the entry points before any is counted; a call of one of them.
constexpr int kMaxForwarded = 16;
void name_forwarded(const char* const* names, int count);
void count_forwarded(int which, CallKind kind);
// Adds `ns` to the counter this thread's last count_call() counted in (the entry points time
// each call: entry/call_hooks.hpp); nothing if the call counted nowhere.
void add_call_time(std::uint64_t ns);
// Forgets which counter this thread counted in last (a timed call starts).
void forget_call_counter();

// Sums the counters over `world` onto its rank 0, which prints one line per path taken:
// "mcorecoll: stats <collective> <path> calls=<N> bytes=<B> time_us=<T> mean_us=<M>
// max_rank_us=<R>", the non-blocking forms as "ibarrier", "ibcast", "ialltoall", the
// persistent ones as "barrier_init", "bcast_init", "alltoall_init". T: the ranks' time in
// those calls, summed; M: T per call; R: the most one rank spent in them (a non-blocking
// call's time is its posting's, a persistent one's its initialization's where that is what
// counted). The forwarded collectives the same, their path "pmpi" and their bytes 0.
// Collective over `world`.
void report_stats(MPI_Comm world);

}  // namespace mcorecoll
