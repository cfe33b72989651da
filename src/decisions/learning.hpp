// Learning in the run (MCORECOLL_LEARN=auto): where a size class of a collective may take two
// paths on a communicator (the path its row gives, and the other of PMPI and its first
// algorithm), the class's first blocking calls take the two in turn, each rank timing its own
// calls, and at a call fixed in advance the ranks agree on the faster from every rank's times;
// from then on every rank takes it, in every form. The schedule runs by the class's call count,
// equal on every rank, never by a clock. Pure: the schedule and the rule (entry/learning.cpp
// times the calls and makes the agreement).
#pragma once

#include <cstdint>
#include <string>

namespace mcorecoll {

// Rounds of one call on each candidate; the first round's calls warm up (leases, pages,
// caches) and are not counted. The agreement comes at the class's blocking call
// 2 * kLearnRounds (from 0).
constexpr int kLearnRounds = 7;
constexpr std::uint64_t kLearnCalls = 2 * kLearnRounds;
// Never replace the row's path for less than this win, whatever the spread.
constexpr double kLearnMinMargin = 0.05;

// The size class of a call of `bytes`: 0 for 0 bytes, else 1 + floor(log2(bytes)): powers of
// two, so a program's repeated sizes share one class.
int size_class(std::uint64_t bytes);
// The sizes of class k, inclusive.
std::uint64_t class_low(int k);
std::uint64_t class_high(int k);
// "1K-2K" and the like, for messages.
std::string class_name(int k);

// The candidate (0: the row's path, 1: the other) the class's blocking call `index` takes while
// it explores, alternating from the row's; whether that call's time is a sample (not a warm-up).
inline int explored_candidate(std::uint64_t index) { return static_cast<int>(index % 2); }
inline bool is_sample(std::uint64_t index) { return index >= 2; }

// What the ranks agree on, per candidate, from every rank's samples: integers, reduced exactly
// (MPI_SUM, MPI_MAX), so every rank judges the same evidence.
struct Evidence {
  std::uint64_t sum_ns[2] = {0, 0};       // over ranks and samples
  std::uint64_t fastest_ns[2] = {0, 0};   // over ranks, of each rank's fastest sample
  std::uint64_t slowest_ns[2] = {0, 0};   // the largest rank's sum over its samples
  int ranks = 0;
  int samples = 0;  // per rank and candidate
};

struct Verdict {
  int winner = 0;  // 0: the row's path stands; 1: the other replaces it
  double mean_us[2] = {0, 0};     // the mean over ranks of each rank's own mean time
  double slowest_us[2] = {0, 0};  // the slowest rank's mean time
  double spread = 0;              // the samples' spread, relative
  double margin = 0;              // the win the other needed, relative
};

// The rule: the other candidate replaces the row's only when it wins in both measures (the
// mean over ranks of each rank's own time, the slowest rank's) by more than the uncertainty of
// those means: the samples' spread (how far each candidate's mean lies above its fastest
// samples, relative, the larger of the two) over the square root of the samples, as a standard
// error is, and at least kLearnMinMargin. Where the evidence is unclear, the row stands.
Verdict judge(const Evidence& e);

}  // namespace mcorecoll
