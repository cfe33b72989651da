#include "entry/learning.hpp"

#include <mpi.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <string>
#include <unordered_map>

#include "common/hook_flags.hpp"
#include "common/log.hpp"
#include "decisions/config.hpp"
#include "decisions/learning.hpp"
#include "decisions/route.hpp"
#include "node/comm_context.hpp"
#include "progress/progress.hpp"

namespace mcorecoll {
namespace {

// One size class of one collective on one communicator: alike on every rank, since every rank
// makes the communicator's blocking calls of that class in the same order.
struct ClassLearning {
  int paths[2] = {0, 0};      // the row's, the other
  std::uint64_t calls = 0;    // the class's blocking calls so far
  int learned = -1;           // the path once agreed
  std::uint64_t samples[2][kLearnSamples] = {};  // this rank's own times, ns
  int taken[2] = {0, 0};
};

// Classes exploring in this process: while any is, the entry points time their calls.
std::atomic<int> g_exploring{0};

void begin_exploring() {
  if (g_exploring.fetch_add(1) == 0) enable_call_hook(kHookLearning);
}

void end_exploring() {
  if (g_exploring.fetch_sub(1) == 1) disable_call_hook(kHookLearning);
}

struct Learning {
  std::unordered_map<std::uint32_t, ClassLearning> classes;  // by collective and size class
  // Per collective: the sizes below this its row gives the MPI library, where a rank may hand
  // a call on without deciding (entry/fast_handoff.hpp), by its own state: only the ranks that
  // decide would count such calls, so they are never explored. kUnknown until looked up.
  static constexpr std::uint64_t kUnknown = ~0ull - 1;
  std::array<std::uint64_t, kCollectiveCount> handed_on_below = every<std::uint64_t>(kUnknown);
  // A communicator freed while some of its classes explore: they no longer keep the calls timed.
  ~Learning() {
    for (const auto& entry : classes)
      if (entry.second.learned < 0) end_exploring();
  }
};

// The sample this thread's call in progress takes (null: none).
struct Sample {
  ClassLearning* cls = nullptr;
  int candidate = 0;
};
thread_local Sample t_sample;

// The path a class's row did not give: PMPI beside an algorithm, or the collective's first
// algorithm beside PMPI (where it has one, inside one node, at a size the node machinery takes).
int other_path(const CommContext& ctx, Collective c, std::uint64_t bytes, int path) {
  if (path != kPmpiPath) return kPmpiPath;
  if (algorithm_names(c).empty() || ctx.node_count > 1 || bytes > kMaxShmBytes) return -1;
  return 1;
}

// Every rank's samples of `cls`, agreed: the verdict, alike on every rank.
Verdict agree(CommContext& ctx, const ClassLearning& cls) {
  // The communicator's started operations go first: a peer may wait for them before it comes
  // to the agreement.
  complete_operations_on(ctx);
  const Own a = own_time(cls.samples[0], cls.taken[0]), b = own_time(cls.samples[1], cls.taken[1]);
  std::int64_t sums[4] = {static_cast<std::int64_t>(a.typical_ns), static_cast<std::int64_t>(b.typical_ns),
                          static_cast<std::int64_t>(a.fastest_ns), static_cast<std::int64_t>(b.fastest_ns)};
  std::int64_t most[2] = {sums[0], sums[1]};
  std::int64_t summed[4] = {0, 0, 0, 0}, largest[2] = {0, 0};
  // Signed: MPICH 4.0's MPI_MAX compares MPI_UINT64_T as signed (doc/mpi-defects.md).
  PMPI_Allreduce(sums, summed, 4, MPI_INT64_T, MPI_SUM, ctx.comm);
  PMPI_Allreduce(most, largest, 2, MPI_INT64_T, MPI_MAX, ctx.comm);
  Evidence e;
  for (int x = 0; x < 2; ++x) {
    e.typical_ns[x] = static_cast<std::uint64_t>(summed[x]);
    e.fastest_ns[x] = static_cast<std::uint64_t>(summed[2 + x]);
    e.slowest_ns[x] = static_cast<std::uint64_t>(largest[x]);
  }
  e.ranks = ctx.size;
  e.samples = kLearnSamples;
  return judge(e);
}

std::string path_word(Collective c, int path) {
  return path == kPmpiPath ? "pmpi" : algorithm_names(c)[static_cast<std::size_t>(path - 1)];
}

void say_learned(const CommContext& ctx, const Config& config, Collective c, int k, const ClassLearning& cls,
                 const Verdict& v) {
  if (ctx.rank != 0 || (config.verbose < 1 && !config.stats)) return;
  char numbers[200];
  std::snprintf(numbers, sizeof numbers, "mean %.2f/%.2f us, slowest rank %.2f/%.2f us, margin %.2f",
                v.mean_us[0], v.mean_us[1], v.slowest_us[0], v.slowest_us[1], v.margin);
  say("learned " + std::string(collective_name(c)) + " " + class_name(k) + " on a communicator of " +
      std::to_string(ctx.size) + " ranks: " + path_word(c, cls.learned) + " (the row's " +
      path_word(c, cls.paths[0]) + ", the other " + path_word(c, cls.paths[1]) + ": " + numbers + "; " +
      std::to_string(kLearnCalls) + " calls explored)");
}

}  // namespace

int learned_path(CommContext& ctx, const Config& config, Collective c, std::uint64_t bytes, int path, Form form,
                 const char** why) {
  Learning& learning = ctx.kept.get<Learning>();
  std::uint64_t& below = learning.handed_on_below[static_cast<int>(c)];
  if (below == Learning::kUnknown)
    below = pmpi_below(c, config, ctx.node_count > 1, ctx.table_rows[static_cast<int>(c)]);
  if (bytes < below) return path;
  const int k = size_class(bytes);
  const std::uint32_t key = static_cast<std::uint32_t>(c) << 8 | static_cast<std::uint32_t>(k);
  std::unordered_map<std::uint32_t, ClassLearning>& classes = learning.classes;
  auto found = classes.find(key);
  if (found == classes.end()) {
    const int other = other_path(ctx, c, bytes, path);
    if (other < 0) return path;  // one candidate: nothing to learn
    ClassLearning fresh;
    fresh.paths[0] = path, fresh.paths[1] = other;
    found = classes.emplace(key, fresh).first;
    begin_exploring();
  }
  ClassLearning& cls = found->second;
  if (cls.learned >= 0) {
    if (cls.learned == kPmpiPath) *why = "learned in this run: the MPI library's path was the faster at this size";
    return cls.learned;
  }
  if (form != Form::blocking) return cls.paths[0];  // the row's until the class has learned
  const std::uint64_t index = cls.calls++;
  if (index < kLearnCalls) {
    const int candidate = explored_candidate(index);
    if (is_sample(index)) t_sample = {&cls, candidate};
    if (cls.paths[candidate] == kPmpiPath) *why = "learning in this run: the MPI library's path is tried in turn";
    return cls.paths[candidate];
  }
  const Verdict v = agree(ctx, cls);
  cls.learned = cls.paths[v.winner];
  end_exploring();
  // Handed on from now on without deciding, like the sizes below the row's first band: every
  // size of the class goes to PMPI and nothing here would be counted (fast_handoff.hpp).
  if (cls.learned == kPmpiPath && !config.stats && config.verbose < 1 && k < 64)
    ctx.learned_pmpi[static_cast<int>(c)] |= 1ull << k;
  say_learned(ctx, config, c, k, cls, v);
  if (cls.learned == kPmpiPath) *why = "learned in this run: the MPI library's path was the faster at this size";
  return cls.learned;
}

void end_learning_sample(std::uint64_t ns) {
  Sample s = t_sample;
  t_sample = Sample{};
  if (!s.cls || s.cls->taken[s.candidate] >= kLearnSamples) return;
  s.cls->samples[s.candidate][s.cls->taken[s.candidate]++] = ns;
}

}  // namespace mcorecoll
