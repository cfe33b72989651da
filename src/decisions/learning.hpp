// Learning in the run (MCORECOLL_LEARN=auto): where a size class of a collective may take more
// than one path on a communicator (the path its row gives; PMPI or the collective's first
// algorithm; single copy or the lanes where they serve), the class's first calls take each
// candidate in turn (its blocking calls; inside one node its non-blocking ones too), each rank
// timing its own calls, and at a call fixed in advance the ranks agree on the fastest from
// every rank's times;
// from then on every rank takes it, in every form. The schedule runs by the class's call count,
// equal on every rank, never by a clock. Pure: the schedule and the rule (entry/learning.cpp
// times the calls and makes the agreement).
#pragma once

#include <cstdint>
#include <string>

namespace mcorecoll {

// Calls on each candidate, back to back, the row's first; the first of each run warms up
// (leases, pages, caches, and the ranks' skew the other path left) and is not counted. With n
// candidates the agreement comes at the class's blocking call n * kLearnRounds (from 0).
constexpr int kLearnRounds = 7;
constexpr int kLearnSamples = kLearnRounds - 1;
constexpr int kLearnCandidatesMost = 3;  // the row's path and at most two others
inline std::uint64_t learn_calls(int candidates) { return static_cast<std::uint64_t>(candidates) * kLearnRounds; }
// Never replace the row's path for less than this win, whatever the spread.
constexpr double kLearnMinMargin = 0.05;

// The size class of a call of `bytes`: 0 for 0 bytes, else 1 + floor(log2(bytes)): powers of
// two, so a program's repeated sizes share one class.
inline int size_class(std::uint64_t bytes) { return bytes == 0 ? 0 : 64 - __builtin_clzll(bytes); }
// The sizes of class k, inclusive.
std::uint64_t class_low(int k);
std::uint64_t class_high(int k);
// "1K-2K" and the like, for messages.
std::string class_name(int k);

// The candidate (0: the row's path, 1 and 2: the others) the class's blocking call `index` takes
// while it explores: the row's for the first kLearnRounds calls, then each other's, each in a run of
// back-to-back calls as programs make them (alternating, each call's time took the skew the
// other path had left between the ranks: an alltoall of MPICH measured 4.7 us after single
// copies where it takes 0.5 us back to back); whether that call's time is a sample.
inline int explored_candidate(std::uint64_t index) { return static_cast<int>(index / kLearnRounds); }
inline bool is_sample(std::uint64_t index) { return index % kLearnRounds != 0; }

// A rank's own time on one candidate from its samples: their median (one slow call, the first
// of a new size in an MPI library, say, does not decide) and the fastest.
struct Own {
  std::uint64_t typical_ns = 0, fastest_ns = 0;
};
Own own_time(const std::uint64_t* samples, int count);

// What the ranks agree on, per candidate, from every rank's own time: integers, reduced exactly
// (MPI_SUM, MPI_MAX), so every rank judges the same evidence.
struct Evidence {
  int candidates = 2;  // the row's first
  std::uint64_t typical_ns[kLearnCandidatesMost] = {};  // summed over ranks
  std::uint64_t fastest_ns[kLearnCandidatesMost] = {};  // summed over ranks
  std::uint64_t slowest_ns[kLearnCandidatesMost] = {};  // the largest rank's typical time
  int ranks = 0;
  int samples = 0;  // per rank and candidate
};

struct Verdict {
  int winner = 0;  // 0: the row's path stands; k: candidate k replaces it
  double mean_us[kLearnCandidatesMost] = {};     // the mean over ranks of each rank's own time
  double slowest_us[kLearnCandidatesMost] = {};  // the slowest rank's own time
  double spread = 0;  // the samples' largest spread, relative
  double margin = 0;  // the win the winner needed, relative (the row standing: the largest asked)
};

// The rule: another candidate replaces the row's only when it wins in both measures (the mean
// over ranks of each rank's own time, the slowest rank's) by more than the uncertainty of those
// times: the samples' spread (how far a candidate's typical time lies above its fastest
// samples, relative, the larger of the two compared) over the square root of the samples, as a
// standard error is, and at least kLearnMinMargin. Of several that do, the one of the least mean
// (on a tie the earlier). Where the evidence is unclear, the row stands.
Verdict judge(const Evidence& e);

}  // namespace mcorecoll
