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

// Sums the counters over `world` onto its rank 0, which prints one line per path taken:
// "mcorecoll: stats <collective> <path> calls=<N> bytes=<B>", the non-blocking forms as
// "ibarrier", "ibcast", "ialltoall", the persistent ones as "barrier_init", "bcast_init",
// "alltoall_init". Collective over `world`.
void report_stats(MPI_Comm world);

}  // namespace mcorecoll
