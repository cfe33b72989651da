// Per-path call and byte counters, reported at finalize by MCORECOLL_STATS=1.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

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

// One form of one collective on one path, summed over the ranks of the world (the forwarded
// collectives: path "pmpi", bytes 0).
struct StatsLine {
  std::string form;        // "bcast", "ibcast" (non-blocking), "bcast_init" (persistent)
  std::string collective;  // "bcast"
  std::string path;        // "pmpi" or an algorithm
  CallKind kind = CallKind::blocking;
  bool forwarded = false;  // a collective mcorecoll hands on untouched (entry/forwarded.hpp)
  std::uint64_t calls = 0, bytes = 0;
  // Each rank's own time in these calls (a non-blocking call's time is its posting's, a
  // persistent one's its initialization's where that is what counted): summed over the ranks,
  // the least and the most one rank spent.
  std::uint64_t ns_sum = 0, ns_least_rank = 0, ns_most_rank = 0;
  std::uint64_t size_classes = 0;  // bit k: a call of size class k (decisions/learning.hpp; 63: larger)
};

// Sums the counters over `world` onto its rank 0: its lines there, in a fixed order (form,
// collective, path); empty on the other ranks. Collective over `world`.
std::vector<StatsLine> collect_stats(MPI_Comm world);

// MCORECOLL_STATS=1: one line per line of `lines`, "mcorecoll: stats <form> <path> calls=<N>
// bytes=<B> time_us=<T> mean_us=<M> max_rank_us=<R>": T the ranks' time summed, M T per call,
// R the most one rank spent; then a table of one line a collective, the most time first: its
// calls, a rank's mean time in it, that time's share of the job's `job_ns` (MPI_Init to
// MPI_Finalize) on `ranks` ranks, and its forms and paths with their calls.
void print_stats(const std::vector<StatsLine>& lines, int ranks, std::uint64_t job_ns);

}  // namespace mcorecoll
