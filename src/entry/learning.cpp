#include "entry/learning.hpp"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/hook_flags.hpp"
#include "common/log.hpp"
#include "decisions/config.hpp"
#include "decisions/learned_file.hpp"
#include "decisions/learning.hpp"
#include "decisions/route.hpp"
#include "entry/job_report.hpp"
#include "lanes/lanes.hpp"
#include "node/comm_context.hpp"
#include "progress/progress.hpp"

namespace mcorecoll {
namespace {

// What one place (collective, communicator shape, size class) cost and gave in this process, for
// the job's report: the calls explored on its communicators, and those on the learned path
// after (every form). Shared by the communicators of the place, so that one freed leaves its
// counts; kept only where calls are counted (MCORECOLL_STATS, MCORECOLL_REPORT).
struct PlaceCalls {
  std::atomic<std::uint64_t> explored{0}, after{0};
};
using SharedCalls = std::shared_ptr<PlaceCalls>;

// One size class of one collective on one communicator: alike on every rank, since every rank
// makes the communicator's blocking calls of that class in the same order.
struct ClassLearning {
  int candidates = 0;                    // how many paths are tried
  int paths[kLearnCandidatesMost] = {};  // the row's, then the others
  std::uint64_t calls = 0;    // the class's blocking calls so far
  int learned = -1;           // the path once agreed
  bool remembered = false;    // learned by an earlier job (the learned file)
  std::uint64_t samples[kLearnCandidatesMost][kLearnSamples] = {};  // this rank's own times, ns
  int taken[kLearnCandidatesMost] = {};
  SharedCalls calls_here;  // its place's counts, once learned (null: not counted)
};

// The learned file (decisions/learned_file.hpp). `known`: what the job found at its start,
// alike on every rank (the world's rank 0 read it and handed it on in MPI_Init), so that all
// ranks of any communicator skip the same explorations. `learned`: what this process's
// communicators learned in this run; never looked up (a communicator's other ranks need not
// have learned it), only written at the end, by the world's rank 0, where `path` is set.
struct Book {
  std::mutex mutex;
  std::vector<LearnedSize> known, learned;
  std::vector<SharedCalls> known_calls, learned_calls;  // alongside known and learned
  LearnedKey key;
  std::string path;
};
Book& book() {
  static Book* b = new Book;  // outlives the static destructors that may run after MPI_Finalize
  return *b;
}

// A class of collective `c` on `ctx`, where the file would put it.
LearnedSize place_of(const CommContext& ctx, Collective c, int k) {
  LearnedSize s;
  s.collective = c;
  s.ranks = ctx.size;
  s.nodes = ctx.node_count;
  s.node_ranks = ctx.max_node_size;
  s.size_class = k;
  return s;
}

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

// Single copy is tried from a page on: below it one system call a peer costs more than the
// two copies of copy-in/copy-out, and no row anywhere gives it less (src/decisions/rows/).
constexpr std::uint64_t kSingleCopyLearnBytes = 4096;
// The lanes are tried from 64 KiB on: below it a node's slices are too short to pay for the
// node phases (doc/cost-model.md predicts their win on a cluster's network from there).
constexpr std::uint64_t kLanesLearnBytes = 64 * 1024;

// The paths a class may take beside the row's `path`, in the order they are explored, into
// `others` (at most kLearnCandidatesMost - 1); how many. Equal on every rank: they follow
// from the size, the communicator's shape and state every rank holds alike.
// - PMPI beside an algorithm.
// - The collective's first algorithm beside any other path, where it has one for this
//   communicator at a size the node machinery takes. Across nodes that is the composition of
//   node and leaders' phases, which a cluster's network may favour where the rows (measured on
//   one node, or on hosts of one machine) said PMPI; it needs a collective that has one across
//   nodes, and for the scans nodes of consecutive ranks (the scans' route refuses others).
// - Single copy (bcast, alltoall) inside one node from kSingleCopyLearnBytes, unless its probe
//   found it refused (not probed yet, on a communicator's first calls: a candidate, whose calls
//   go to PMPI where the probe then refuses it).
// - The lanes (bcast, allreduce, reduce, allgather by block, the reduce-scatters) across nodes
//   of equal size from kLanesLearnBytes.
// - Allreduce and reduce inside one node, beside a node algorithm (the node's choice `shm`
//   stands for the one it takes at this size): the other of its kind, lines or tree, fold or
//   slices (decisions/route.hpp), in place of the first algorithm. Judged by the signature's
//   bytes: a type with gaps may take fold where both were meant, then both time one algorithm.
int other_paths(const CommContext& ctx, const Config& config, Collective c, std::uint64_t bytes, int path,
                int* others) {
  int n = 0;
  auto add = [&](int p) {
    if (p != path && n < kLearnCandidatesMost - 1) others[n++] = p;
  };
  add(kPmpiPath);
  const bool reduction = c == Collective::allreduce || c == Collective::reduce;
  if (reduction && ctx.node_count == 1 && (path == kReductionShm || node_reduction(path))) {
    add(node_reduction_sibling(node_reduction_taken(path, bytes, ctx.node_size, config)));
    return n;
  }
  bool first = !algorithm_names(c).empty() && bytes <= kMaxShmBytes;
  if (ctx.node_count > 1) {
    const bool scan = c == Collective::scan || c == Collective::exscan;
    first = first && !node_only(c) && !(scan && !ctx.nodes_in_rank_order);
  }
  if (first) add(1);
  const int single_copy = c == Collective::bcast ? kBcastCma : c == Collective::alltoall ? kAlltoallCma : 0;
  if (single_copy && ctx.node_count == 1 && bytes >= kSingleCopyLearnBytes && ctx.channel.single_copy != 0)
    add(single_copy);
  if (lanes_path(c) && bytes >= kLanesLearnBytes && bytes <= kMaxShmBytes && !lanes_refusal(ctx, true))
    add(lanes_path(c));
  return n;
}

// Every rank's samples of `cls`, agreed: the verdict, alike on every rank.
Verdict agree(CommContext& ctx, const ClassLearning& cls) {
  // The communicator's started operations go first: a peer may wait for them before it comes
  // to the agreement.
  complete_operations_on(ctx);
  const int n = cls.candidates;
  // Per candidate x: sums[x] its typical time, sums[n + x] its fastest sample; most[x] its typical.
  std::int64_t sums[2 * kLearnCandidatesMost] = {}, most[kLearnCandidatesMost] = {};
  for (int x = 0; x < n; ++x) {
    const Own own = own_time(cls.samples[x], cls.taken[x]);
    sums[x] = most[x] = static_cast<std::int64_t>(own.typical_ns);
    sums[n + x] = static_cast<std::int64_t>(own.fastest_ns);
  }
  std::int64_t summed[2 * kLearnCandidatesMost] = {}, largest[kLearnCandidatesMost] = {};
  // Signed: MPICH 4.0's MPI_MAX compares MPI_UINT64_T as signed (doc/mpi-defects.md).
  PMPI_Allreduce(sums, summed, 2 * n, MPI_INT64_T, MPI_SUM, ctx.comm);
  PMPI_Allreduce(most, largest, n, MPI_INT64_T, MPI_MAX, ctx.comm);
  Evidence e;
  e.candidates = n;
  for (int x = 0; x < n; ++x) {
    e.typical_ns[x] = static_cast<std::uint64_t>(summed[x]);
    e.fastest_ns[x] = static_cast<std::uint64_t>(summed[n + x]);
    e.slowest_ns[x] = static_cast<std::uint64_t>(largest[x]);
  }
  e.ranks = ctx.size;
  e.samples = kLearnSamples;
  return judge(e);
}

// "pmpi,cma": the candidates after the row's.
std::string others_word(Collective c, const ClassLearning& cls) {
  std::string out;
  for (int x = 1; x < cls.candidates; ++x) out += (x > 1 ? "," : "") + path_name(c, cls.paths[x]);
  return out;
}

void say_learned(const CommContext& ctx, const Config& config, Collective c, int k, const ClassLearning& cls,
                 const Verdict& v) {
  if (ctx.rank != 0 || (config.verbose < 1 && !config.stats)) return;
  char margin[32];
  std::snprintf(margin, sizeof margin, "%.2f", v.margin);
  say("learned " + std::string(collective_name(c)) + " " + class_name(k) + " on a communicator of " +
      std::to_string(ctx.size) + " ranks: " + path_name(c, cls.learned) + " (the row's " +
      path_name(c, cls.paths[0]) + ", the other " + others_word(c, cls) + ": mean " +
      times_text(v.mean_us, static_cast<std::size_t>(cls.candidates), 2) + " us, slowest rank " +
      times_text(v.slowest_us, static_cast<std::size_t>(cls.candidates), 2) +
      " us, margin " + margin + "; " + std::to_string(learn_calls(cls.candidates)) + " calls explored)");
}

// The path an earlier job learned for this class, where the learned file has it for the same
// candidates (*calls: its counts); else -1.
int remembered_path(const CommContext& ctx, Collective c, int k, const ClassLearning& cls, SharedCalls* calls) {
  const LearnedSize here = place_of(ctx, c, k);
  const Book& b = book();  // `known` does not change after MPI_Init
  const std::string others = others_word(c, cls);
  for (std::size_t i = 0; i < b.known.size(); ++i) {
    const LearnedSize& s = b.known[i];
    if (!same_place(s, here) || s.row != path_name(c, cls.paths[0]) || others_text(s) != others) continue;
    *calls = b.known_calls[i];
    for (int x = 0; x < cls.candidates; ++x)
      if (s.path == path_name(c, cls.paths[x])) return cls.paths[x];
  }
  return -1;
}

// The verdict, in place of any earlier one of the same place (another communicator's); the
// place's counts go on.
void remember(const CommContext& ctx, Collective c, int k, ClassLearning& cls, const Verdict& v) {
  LearnedSize s = place_of(ctx, c, k);
  s.row = path_name(c, cls.paths[0]);
  for (int x = 1; x < cls.candidates; ++x) s.others.push_back(path_name(c, cls.paths[x]));
  s.path = path_name(c, cls.learned);
  s.mean_us.assign(v.mean_us, v.mean_us + cls.candidates);
  s.slowest_us.assign(v.slowest_us, v.slowest_us + cls.candidates);
  Book& b = book();
  std::lock_guard<std::mutex> lock(b.mutex);
  SharedCalls calls;
  for (std::size_t i = 0; i < b.learned.size(); ++i) {
    if (!same_place(b.learned[i], s)) continue;
    calls = b.learned_calls[i];
    b.learned.erase(b.learned.begin() + static_cast<std::ptrdiff_t>(i));
    b.learned_calls.erase(b.learned_calls.begin() + static_cast<std::ptrdiff_t>(i));
    break;
  }
  if (!calls) calls = std::make_shared<PlaceCalls>();
  calls->explored += learn_calls(cls.candidates);
  b.learned.push_back(s);
  b.learned_calls.push_back(calls);
  cls.calls_here = calls;
}

std::string sizes_word(std::size_t n) { return std::to_string(n) + (n == 1 ? " size" : " sizes"); }

}  // namespace

void read_learned(const CommContext& world, const Config& config) {
  Book& b = book();
  std::string text;
  if (world.rank == 0) {
    b.key.node = world.topology_or_stop(config).shape();
    b.key.ranks_per_node = world.max_node_size;
    b.key.nodes = world.node_count;
    b.key.mpi = mpi_library_version();
    b.key.mcorecoll = MCORECOLL_VERSION;
    const std::string dir = learned_directory(config.learn_dir, std::getenv("XDG_CACHE_HOME"), std::getenv("HOME"));
    if (!dir.empty()) b.path = dir + "/" + learned_file_name(b.key);
    bool missing = false;
    std::string error;
    std::vector<LearnedSize> sizes;
    if (b.path.empty()) {
      if (config.verbose >= 1) say("no learned file: MCORECOLL_LEARN_DIR is none, or no cache directory (HOME) is known");
    } else if (!read_whole(b.path, &text, &missing, &error)) {
      if (!missing) say("warning: ignoring the learned file: " + error);
      text.clear();
    } else if (!parse_learned(text, &b.key, &sizes, &error)) {
      say("warning: ignoring the learned file '" + b.path + "': " + error +
          " (this job learns afresh and writes it anew at its end)");
      text.clear();
    } else if (config.verbose >= 1 || config.stats) {
      say("learned file '" + b.path + "': " + sizes_word(sizes.size()) + " learned by earlier jobs, taken from the first call");
    }
  }
  // Handed on, not read by each rank: the ranks of other nodes may see other files, or none.
  std::int64_t length = static_cast<std::int64_t>(text.size());
  PMPI_Bcast(&length, 1, MPI_INT64_T, 0, world.comm);
  if (length == 0) return;
  text.resize(static_cast<std::size_t>(length));
  PMPI_Bcast(&text[0], static_cast<int>(length), MPI_CHAR, 0, world.comm);
  std::string error;
  parse_learned(text, nullptr, &b.known, &error);  // rank 0 checked it whole
  for (std::size_t i = 0; i < b.known.size(); ++i) b.known_calls.push_back(std::make_shared<PlaceCalls>());
}

void write_learned(const Config& config) {
  Book& b = book();
  std::lock_guard<std::mutex> lock(b.mutex);
  if (b.path.empty() || b.learned.empty()) return;
  std::vector<LearnedSize> all;
  for (const LearnedSize& s : b.known)
    if (std::none_of(b.learned.begin(), b.learned.end(), [&](const LearnedSize& x) { return same_place(x, s); }))
      all.push_back(s);
  all.insert(all.end(), b.learned.begin(), b.learned.end());
  std::string error;
  if (!write_whole(b.path, format_learned(b.key, all), &error))
    say("warning: what this job learned is not remembered: " + error);
  else if (config.verbose >= 1 || config.stats)
    say("learned file '" + b.path + "': " + sizes_word(b.learned.size()) + " learned in this job written (" +
        std::to_string(all.size()) + " in all)");
}

std::vector<KnownSize> known_sizes() {
  Book& b = book();
  std::lock_guard<std::mutex> lock(b.mutex);
  std::vector<KnownSize> all;
  for (std::size_t i = 0; i < b.known.size(); ++i)
    all.push_back({b.known[i], true, b.known_calls[i]->explored, b.known_calls[i]->after});
  for (std::size_t i = 0; i < b.learned.size(); ++i)
    all.push_back({b.learned[i], false, b.learned_calls[i]->explored, b.learned_calls[i]->after});
  return all;
}

std::string describe_learned(const Config& config) {
  if (!config.learn) return "  off (MCORECOLL_LEARN=off): the rows as they are\n";
  std::string out;
  {
    Book& b = book();
    std::lock_guard<std::mutex> lock(b.mutex);
    if (!b.path.empty())
      out += "  file: " + b.path + " (" + (b.known.empty() ? "nothing known yet" : sizes_word(b.known.size()) + " known") +
             "; written at MPI_Finalize)\n";
    else
      out += "  file: read by the world's rank 0 only, or none (MCORECOLL_LEARN_DIR=none, no cache directory)\n";
  }
  for (const KnownSize& k : known_sizes()) {
    const LearnedSize& s = k.size;
    const std::string numbers = "mean " + times_text(s.mean_us.data(), s.mean_us.size(), 2) +
                                " us, slowest rank " +
                                times_text(s.slowest_us.data(), s.slowest_us.size(), 2) + " us";
    out += "  " + std::string(collective_name(s.collective)) + " " + class_name(s.size_class) + " on " +
           std::to_string(s.ranks) + " ranks, " + std::to_string(s.nodes) + " node(s), " + std::to_string(s.node_ranks) +
           " on the fullest: " + s.path + " (the row's " + s.row + ", the other " + others_text(s) + ": " + numbers + "; " +
           (k.from_file ? "learned file" : "learned in this run") + ")\n";
  }
  return out;
}

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
    ClassLearning fresh;
    fresh.paths[0] = path;
    fresh.candidates = 1 + other_paths(ctx, config, c, bytes, path, fresh.paths + 1);
    if (fresh.candidates < 2) return path;  // one candidate: nothing to learn
    SharedCalls calls;
    if (const int earlier = remembered_path(ctx, c, k, fresh, &calls); earlier >= 0) {
      fresh.learned = earlier, fresh.remembered = true;
      if (config.counted()) fresh.calls_here = calls;
      if (earlier == kPmpiPath && !config.counted() && config.verbose < 1 && k < 64)
        ctx.learned_pmpi[static_cast<int>(c)] |= 1ull << k;
    }
    found = classes.emplace(key, fresh).first;
    if (!fresh.remembered) begin_exploring();
  }
  ClassLearning& cls = found->second;
  if (cls.learned >= 0) {
    if (cls.calls_here) cls.calls_here->after.fetch_add(1, std::memory_order_relaxed);
    if (cls.learned == kPmpiPath)
      *why = cls.remembered ? "learned by an earlier job (the learned file): the MPI library's path was the faster at this size"
                            : "learned in this run: the MPI library's path was the faster at this size";
    return cls.learned;
  }
  if (form != Form::blocking) return cls.paths[0];  // the row's until the class has learned
  const std::uint64_t index = cls.calls++;
  if (index < learn_calls(cls.candidates)) {
    const int candidate = explored_candidate(index);
    if (is_sample(index)) t_sample = {&cls, candidate};
    if (cls.paths[candidate] == kPmpiPath) *why = "learning in this run: the MPI library's path is tried in turn";
    return cls.paths[candidate];
  }
  const Verdict v = agree(ctx, cls);
  cls.learned = cls.paths[v.winner];
  end_exploring();
  remember(ctx, c, k, cls, v);
  if (!config.counted()) cls.calls_here.reset();  // nothing reports it
  else cls.calls_here->after.fetch_add(1, std::memory_order_relaxed);  // this call takes it
  // Handed on from now on without deciding, like the sizes below the row's first band: every
  // size of the class goes to PMPI and nothing here would be counted (fast_handoff.hpp).
  if (cls.learned == kPmpiPath && !config.counted() && config.verbose < 1 && k < 64)
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
