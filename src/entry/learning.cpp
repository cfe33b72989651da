#include "entry/learning.hpp"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/hook_flags.hpp"
#include "common/log.hpp"
#include "common/clock.hpp"
#include "decisions/config.hpp"
#include "decisions/learned_file.hpp"
#include "decisions/learning.hpp"
#include "decisions/route.hpp"
#include "entry/job_report.hpp"
#include "lanes/lanes.hpp"
#include "node/comm_context.hpp"
#include "node/node_setup.hpp"
#include "node/node_shm.hpp"
#include "node/wait.hpp"
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

// Where a class's ranks stand in agreeing without waiting (its call learn_calls() was
// non-blocking): turn() below.
enum class Turn {
  none,     // not agreeing that way
  post,     // this rank's times go into its line once its samples are in
  posted,   // they are: waits for every node rank's
  holding,  // judged: each call on the row's path published until the switch is known
};

// One size class of one collective on one communicator: alike on every rank, since every rank
// makes the communicator's calls of that class in the same order.
struct ClassLearning {
  Collective collective = Collective::barrier;
  int size_class = 0;
  int candidates = 0;                    // how many paths are tried
  int paths[kLearnCandidatesMost] = {};  // the row's, then the others
  std::uint64_t calls = 0;    // the class's calls so far that follow the schedule
  int learned = -1;           // the path once agreed
  std::uint64_t learned_from = 0;  // the class's first call on it (before: the row's)
  bool remembered = false;    // learned by an earlier job (the learned file)
  // This rank's own times, ns, by candidate and sample (0: none, or not yet): each call's
  // place is fixed by its index, so that a non-blocking one ends in any order, on any thread.
  std::uint64_t samples[kLearnCandidatesMost][kLearnSamples] = {};
  std::atomic<int> pending{0};  // non-blocking samples whose operations have not ended
  bool timed = false;          // its calls are timed (counted in g_exploring)
  bool met = false;            // agreed at a blocking call of the communicator (across nodes)
  Turn turn = Turn::none;
  std::uint64_t turn_number = 0;  // the communicator's agreements without waiting, from 0
  Verdict verdict;                // once judged (Turn::holding)
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

// Classes exploring in this process: while any is, the entry points time their calls. Counted
// and the hook switched under one lock: threads of MPI_THREAD_MULTIPLE that begin and end
// classes at once must never leave the hook off while one explores (its non-blocking samples
// would wait for a hook that never takes them).
std::mutex g_exploring_mutex;
int g_exploring = 0;

void begin_exploring() {
  std::lock_guard<std::mutex> lock(g_exploring_mutex);
  if (g_exploring++ == 0) enable_call_hook(kHookLearning);
}

void end_exploring() {
  std::lock_guard<std::mutex> lock(g_exploring_mutex);
  if (--g_exploring == 0) disable_call_hook(kHookLearning);
}

struct Learning {
  std::unordered_map<std::uint32_t, ClassLearning> classes;  // by collective and size class
  // Classes agreeing without waiting, in turn order (one turn at a time uses the node's
  // learning line), and the turns handed out so far: alike on every rank.
  std::deque<ClassLearning*> agreeing;
  std::uint64_t turns = 0;
  // Classes whose exploration ended in a non-blocking call across nodes, in that order: their
  // ranks agree at the communicator's next blocking call that decides (meet() below).
  std::deque<ClassLearning*> meeting;
  // Per collective: the sizes below this its row gives the MPI library, where a rank may hand
  // a call on without deciding (entry/fast_handoff.hpp), by its own state: only the ranks that
  // decide would count such calls, so they are never explored. kUnknown until looked up.
  static constexpr std::uint64_t kUnknown = ~0ull - 1;
  std::array<std::uint64_t, kCollectiveCount> handed_on_below = every<std::uint64_t>(kUnknown);
  // A communicator freed while some of its classes explore: they no longer keep the calls timed.
  ~Learning() {
    for (const auto& entry : classes)
      if (entry.second.timed) end_exploring();
  }
};

// The sample this thread's call in progress takes (slot.ns null: none); `operation`: a
// non-blocking call's, timed by its operation (entry/call_forms.hpp).
struct Sample {
  SampleSlot slot;
  bool operation = false;
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
//   where they fit (lanes_refusal()) from kLanesLearnBytes.
// - Inside one node, beside a node algorithm of allreduce, reduce, allgather, barrier or the
//   scans (the node's choice `shm` stands for the one it takes at this size): the other of its
//   kind where it accepts the call (decisions/node_algorithms.hpp), in place of the first
//   algorithm. Judged by the signature's bytes: a reduction's type with gaps may take fold
//   where both were meant, then both time one algorithm.
int other_paths(const CommContext& ctx, const Config& config, Collective c, std::uint64_t bytes, int path,
                int* others) {
  int n = 0;
  auto add = [&](int p) {
    if (p != path && n < kLearnCandidatesMost - 1) others[n++] = p;
  };
  add(kPmpiPath);
  if (has_node_algorithms(c) && ctx.node_count == 1 && (path == kNodeChoice || node_algorithm(c, path))) {
    const int sibling =
        node_algorithm_sibling(c, node_algorithm_taken(c, path, bytes, ctx.node_size, config), bytes, ctx.node_size);
    if (sibling >= 0) add(sibling);
    return n;
  }
  bool first = !algorithm_names(c).empty() && bytes <= kMaxShmBytes;
  if (ctx.node_count > 1) {
    const bool scan = c == Collective::scan || c == Collective::exscan;
    // (Node-only collectives: the rooted v-forms' blocking form, decided after its round.)
    first = first && (!node_only(c) || spans_after_agreeing(c, Form::blocking)) &&
            !(scan && !ctx.nodes_in_rank_order);
  }
  if (first) add(1);
  const int single_copy = c == Collective::bcast ? kBcastCma : c == Collective::alltoall ? kAlltoallCma : 0;
  if (single_copy && ctx.node_count == 1 && bytes >= kSingleCopyLearnBytes && ctx.channel.single_copy != 0)
    add(single_copy);
  if (lanes_path(c) && bytes >= kLanesLearnBytes && bytes <= kMaxShmBytes && !lanes_refusal(ctx, c, true))
    add(lanes_path(c));
  return n;
}

// This rank's own time on candidate x from the samples it has; *missing set where it has none
// (a non-blocking sample whose call failed before its operation was made).
Own own_on(const ClassLearning& cls, int x, bool* missing) {
  std::uint64_t present[kLearnSamples];
  int n = 0;
  for (const std::uint64_t t : cls.samples[x])
    if (t) present[n++] = t;
  if (!n) *missing = true;
  return own_time(present, n);
}

// The verdict from every rank's times: summed[x] their typical times on candidate x,
// summed[n + x] their fastest, largest[x] the slowest rank's typical. Where some rank had no
// sample of some candidate the row stands.
Verdict judged(const std::int64_t* summed, const std::int64_t* largest, int n, int ranks, bool missing) {
  Evidence e;
  e.candidates = n;
  for (int x = 0; x < n; ++x) {
    e.typical_ns[x] = static_cast<std::uint64_t>(summed[x]);
    e.fastest_ns[x] = static_cast<std::uint64_t>(summed[n + x]);
    e.slowest_ns[x] = static_cast<std::uint64_t>(largest[x]);
  }
  e.ranks = ranks;
  e.samples = kLearnSamples;
  Verdict v = judge(e);
  if (missing) v.winner = 0;
  return v;
}

// Every rank's samples of `cls`, agreed in its blocking call learn_calls(): the verdict, alike
// on every rank.
Verdict agree(CommContext& ctx, const ClassLearning& cls) {
  // The communicator's started operations go first: a peer may wait for them before it comes
  // to the agreement, and their samples end.
  complete_operations_on(ctx);
  const int n = cls.candidates;
  // Per candidate x: sums[x] its typical time, sums[n + x] its fastest sample; most[x] its
  // typical, most[n] whether a candidate had no sample.
  std::int64_t sums[2 * kLearnCandidatesMost] = {}, most[kLearnCandidatesMost + 1] = {};
  bool missing = false;
  for (int x = 0; x < n; ++x) {
    const Own own = own_on(cls, x, &missing);
    sums[x] = most[x] = static_cast<std::int64_t>(own.typical_ns);
    sums[n + x] = static_cast<std::int64_t>(own.fastest_ns);
  }
  most[n] = missing ? 1 : 0;
  std::int64_t summed[2 * kLearnCandidatesMost] = {}, largest[kLearnCandidatesMost + 1] = {};
  // Signed: MPICH 4.0's MPI_MAX compares MPI_UINT64_T as signed (doc/mpi-defects.md).
  PMPI_Allreduce(sums, summed, 2 * n, MPI_INT64_T, MPI_SUM, ctx.comm);
  PMPI_Allreduce(most, largest, n + 1, MPI_INT64_T, MPI_MAX, ctx.comm);
  return judged(summed, largest, n, ctx.size, largest[n] != 0);
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
      " us, margin " + margin + "; " + std::to_string(learn_calls(cls.candidates)) + " calls explored" +
      (cls.learned_from <= learn_calls(cls.candidates) ? std::string()
       : cls.met ? ", agreed at the communicator's next blocking call (or persistent initialization): from the class's call " +
                       std::to_string(cls.learned_from)
                 : ", agreed without waiting: from the class's call " + std::to_string(cls.learned_from)) +
      ")");
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

// The class's calls are no longer timed: it has learned, or it waits for its meeting.
void stop_timing(ClassLearning& cls) {
  if (!cls.timed) return;
  cls.timed = false;
  end_exploring();
}

// The class has learned, by any agreement: from its call `from` on, every rank takes the
// verdict's path.
void learn(CommContext& ctx, const Config& config, ClassLearning& cls, const Verdict& v, std::uint64_t from) {
  cls.learned = cls.paths[v.winner];
  cls.learned_from = from;
  cls.turn = Turn::none;
  stop_timing(cls);
  remember(ctx, cls.collective, cls.size_class, cls, v);
  if (!config.counted()) cls.calls_here.reset();  // nothing reports it
  say_learned(ctx, config, cls.collective, cls.size_class, cls, v);
}

// Agreeing without waiting (a class whose call learn_calls() is non-blocking, on a communicator
// inside one node): the ranks cannot meet in a collective, so they agree through the node's
// learning line (node/node_shm.hpp), one class at a time in the order of their turns. Each rank
// posts its own times in its line once its samples' operations have ended; once every rank has
// posted, each judges the same times by the same rule; the switch call is agreed as a set-up's
// is (node/setup_window.hpp, publish_switch()): a rank that judged publishes every call it
// takes on the row's path, and the last to judge closes the line at one past the latest
// published. A rank's next turn starts only after it knows the switch of the last, so the lines
// are never overwritten while read.

// Moves `cls`'s turn on as far as it goes without waiting; true once it has learned.
bool step_turn(CommContext& ctx, const Config& config, ClassLearning& cls) {
  NodeShm& shm = *ctx.channel.shm;
  NodeShm::LearnLine& line = shm.learn_line();
  const std::uint64_t t = cls.turn_number, ranks = static_cast<std::uint64_t>(ctx.node_size);
  const int n = cls.candidates;
  constexpr int K = kLearnCandidatesMost;
  static_assert(1 + 2 * K <= NodeShm::kLearnTimesWords, "a rank's times fit its words");
  if (cls.turn == Turn::post) {
    if (cls.pending.load(std::memory_order_acquire) > 0) return false;
    std::atomic<std::uint64_t>* mine = shm.learn_times(ctx.node_rank);
    bool missing = false;
    for (int x = 0; x < n; ++x) {
      const Own own = own_on(cls, x, &missing);  // none: 0, which the judges read as missing
      mine[1 + x].store(own.typical_ns, std::memory_order_relaxed);
      mine[1 + K + x].store(own.fastest_ns, std::memory_order_relaxed);
    }
    mine[0].store(t + 1, std::memory_order_release);
    line.posted.fetch_add(1, std::memory_order_acq_rel);
    cls.turn = Turn::posted;
  }
  if (cls.turn == Turn::posted) {
    if (line.posted.load(std::memory_order_acquire) < (t + 1) * ranks) return false;
    std::int64_t summed[2 * K] = {}, largest[K] = {};
    bool missing = false;
    for (int r = 0; r < ctx.node_size; ++r) {
      std::atomic<std::uint64_t>* times = shm.learn_times(r);
      missing = missing || times[0].load(std::memory_order_acquire) != t + 1;
      for (int x = 0; x < n; ++x) {
        const auto typical = static_cast<std::int64_t>(times[1 + x].load(std::memory_order_relaxed));
        missing = missing || typical == 0;
        summed[x] += typical;
        summed[n + x] += static_cast<std::int64_t>(times[1 + K + x].load(std::memory_order_relaxed));
        largest[x] = std::max(largest[x], typical);
      }
    }
    cls.verdict = judged(summed, largest, n, ctx.size, missing);
    // The calls taken on the row's path before judging, published before this rank counts
    // itself: the closer, the last to count itself, closes past them.
    publish_switch(line.state, t, cls.calls - 1, false);
    if (line.holders.fetch_add(1, std::memory_order_acq_rel) + 1 == (t + 1) * ranks)
      publish_switch(line.state, t, cls.calls - 1, true);
    cls.turn = Turn::holding;
  }
  const std::uint64_t state = line.state.load(std::memory_order_acquire);
  if (switch_turn(state) != t || !(state & kSwitchClosed)) return false;
  learn(ctx, config, cls, cls.verdict, state & kSwitchCall);
  return true;
}

// The communicator's turns, moved on in order as far as they go without waiting.
void advance_turns(CommContext& ctx, const Config& config, Learning& learning) {
  while (!learning.agreeing.empty() && step_turn(ctx, config, *learning.agreeing.front()))
    learning.agreeing.pop_front();
}

// A blocking call, or a persistent initialization, of a class in its turn: it may wait, as a
// set-up does, until the switch is known. Every rank makes this call with all its earlier
// calls published, so the switch comes at the class's next call or before.
void await_turn(CommContext& ctx, const Config& config, Learning& learning, const ClassLearning& cls) {
  Waiter waiter = Waiter::for_context(ctx, config);
  unsigned polls = 0;
  for (;;) {
    complete_operations_on(ctx);  // the samples' operations end, and peers' waits on ours
    advance_turns(ctx, config, learning);
    if (cls.learned >= 0) return;
    waiter.backoff(polls);
  }
}

// Agreeing at a meeting (a class whose call learn_calls() was non-blocking, on a communicator
// across nodes): with no memory in common the ranks cannot agree without waiting, and a
// non-blocking call may not wait for them (a peer may reach its own call only after this rank's
// later calls returned). But every rank makes the communicator's blocking calls in one order,
// each after the same calls of every class, and there it may wait. So the class keeps the row's
// path after its exploration until the communicator's next blocking call that decides (a
// blocking collective or persistent initialization learned_path() is asked about, alike on
// every rank); there the ranks agree as in a blocking call of the class, and its calls after
// that one take the verdict. A communicator that never makes such a call keeps the row.
// (agree() completes the communicator's started operations first, the samples' among them, so
// every sample of the class is in.)
void meet(CommContext& ctx, const Config& config, Learning& learning) {
  while (!learning.meeting.empty()) {
    ClassLearning& cls = *learning.meeting.front();
    learning.meeting.pop_front();
    cls.met = true;
    learn(ctx, config, cls, agree(ctx, cls), cls.calls);
  }
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
                 const char** why, bool* explores, bool* settled) {
  // A sample no call took (an entry point without the hook): dropped, so that its class does
  // not wait for it.
  if (t_sample.slot.ns) [[unlikely]] {
    if (t_sample.operation) drop_operation_sample(t_sample.slot);
    t_sample = Sample{};
  }
  Learning& learning = ctx.kept.get<Learning>();
  std::uint64_t& below = learning.handed_on_below[static_cast<int>(c)];
  if (below == Learning::kUnknown)
    below = pmpi_below(c, config, ctx.node_count > 1, ctx.table_rows[static_cast<int>(c)]);
  if (bytes < below) return path;
  const int k = size_class(bytes);
  // Not where a class learned PMPI: some ranks may have handed the call on without deciding.
  if (!learning.meeting.empty() && form != Form::nonblocking &&
      !(k < 64 && (ctx.learned_pmpi[static_cast<int>(c)] >> k & 1)))
    meet(ctx, config, learning);
  const std::uint32_t key = static_cast<std::uint32_t>(c) << 8 | static_cast<std::uint32_t>(k);
  auto found = learning.classes.find(key);
  if (found == learning.classes.end()) {
    int paths[kLearnCandidatesMost] = {path};
    const int candidates = 1 + other_paths(ctx, config, c, bytes, path, paths + 1);
    if (candidates < 2) return path;  // one candidate: nothing to learn
    found = learning.classes.try_emplace(key).first;
    ClassLearning& fresh = found->second;
    fresh.collective = c;
    fresh.size_class = k;
    fresh.candidates = candidates;
    std::copy(paths, paths + candidates, fresh.paths);
    SharedCalls calls;
    if (const int earlier = remembered_path(ctx, c, k, fresh, &calls); earlier >= 0) {
      fresh.learned = earlier, fresh.remembered = true;
      if (config.counted()) fresh.calls_here = calls;
    } else {
      begin_exploring();
      fresh.timed = true;
    }
  }
  ClassLearning& cls = found->second;
  if (!learning.agreeing.empty()) advance_turns(ctx, config, learning);
  if (cls.learned < 0 && cls.turn != Turn::none && form != Form::nonblocking) await_turn(ctx, config, learning, cls);
  *explores = cls.learned < 0;
  // The calls that follow the schedule: the blocking ones, and the non-blocking ones where the
  // ranks can agree: inside one node without waiting, through its shared memory; across nodes
  // at a meeting (meet()), where an operation across nodes may call MPI and the lanes, a
  // candidate, have their communicator (else the samples would time another path). Which those
  // are changes only at a blocking call (the one that makes the shared memory or the lanes),
  // alike on every rank. A persistent initialization takes what the class has learned, or the
  // row's path.
  // Where a GPU runtime may have made device memory (call_decision.cpp), every non-blocking call
  // goes to the MPI library whatever its path: nothing to explore.
  const bool agrees_without_waiting = ctx.node_count == 1 && ctx.channel.shm && !ctx.device_memory_possible;
  const bool agrees_at_meeting =
      ctx.node_count > 1 && ctx.channel.shm && ctx.operations_may_span_nodes && !ctx.device_memory_possible &&
      (ctx.lanes_made ||
       std::none_of(cls.paths, cls.paths + cls.candidates, [c](int p) { return lanes_path(c) != 0 && p == lanes_path(c); }));
  const bool scheduled =
      form == Form::blocking || (form == Form::nonblocking && (agrees_without_waiting || agrees_at_meeting));
  std::uint64_t index = scheduled ? cls.calls++ : cls.calls;
  if (cls.learned < 0 && scheduled) {
    const std::uint64_t agreement = learn_calls(cls.candidates);
    if (index < agreement) {
      const int candidate = explored_candidate(index);
      if (is_sample(index)) {
        Sample& sample = t_sample;
        sample.slot.ns = &cls.samples[candidate][index % kLearnRounds - 1];
        sample.operation = form == Form::nonblocking;
        sample.slot.pending = sample.operation ? &cls.pending : nullptr;
        // A blocking call's time is the entry points' hook's; an operation's runs from here.
        sample.slot.start_ns = sample.operation ? monotonic_ns() : 0;
        if (sample.operation) cls.pending.fetch_add(1, std::memory_order_relaxed);
      }
      if (cls.paths[candidate] == kPmpiPath) *why = "learning in this run: the MPI library's path is tried in turn";
      return cls.paths[candidate];
    }
    if (index == agreement && form == Form::blocking) {
      learn(ctx, config, cls, agree(ctx, cls), index);
    } else if (index == agreement && ctx.node_count > 1) {
      stop_timing(cls);  // its samples are taken; their operations time them to their end
      learning.meeting.push_back(&cls);
    } else if (index == agreement && learning.turns < kSwitchTurnsMost) {
      cls.turn = Turn::post;
      cls.turn_number = learning.turns++;
      learning.agreeing.push_back(&cls);
      advance_turns(ctx, config, learning);
    } else if (index == agreement) {
      learn(ctx, config, cls, Verdict{}, index);  // turns run out: the row stands
    } else if (cls.turn == Turn::holding && &cls == learning.agreeing.front()) {
      if (const std::uint64_t at = publish_switch(ctx.channel.shm->learn_line().state, cls.turn_number, index, false)) {
        learn(ctx, config, cls, cls.verdict, at);  // closed since advance_turns() looked
        learning.agreeing.pop_front();
      }
    }
  }
  if (cls.learned < 0 || index < cls.learned_from) return cls.paths[0];
  *settled = true;
  if (cls.calls_here) cls.calls_here->after.fetch_add(1, std::memory_order_relaxed);
  if (cls.learned == kPmpiPath) {
    // Handed on from now on without deciding, like the sizes below the row's first band: every
    // size of the class goes to PMPI and nothing here would be counted (fast_handoff.hpp).
    if (!config.counted() && config.verbose < 1 && k < 64) ctx.learned_pmpi[static_cast<int>(c)] |= 1ull << k;
    *why = cls.remembered ? "learned by an earlier job (the learned file): the MPI library's path was the faster at this size"
                          : "learned in this run: the MPI library's path was the faster at this size";
  }
  return cls.learned;
}

bool agrees_without_waiting(CommContext& ctx, const Config& config) {
  // The agreement needs the node's shared memory, which a row's PMPI path did not make.
  return ctx.node_count == 1 && ensure_shm(ctx, config);
}

void end_learning_sample(std::uint64_t ns) {
  const Sample s = t_sample;
  t_sample = Sample{};
  if (!s.slot.ns) return;
  if (s.operation) drop_operation_sample(s.slot);
  else *s.slot.ns = std::max<std::uint64_t>(1, ns);
}

bool take_operation_sample(SampleSlot* slot) {
  if (!t_sample.operation || !t_sample.slot.ns) return false;
  *slot = t_sample.slot;
  t_sample = Sample{};
  return true;
}

void drop_operation_sample(const SampleSlot& slot) { slot.pending->fetch_sub(1, std::memory_order_release); }

}  // namespace mcorecoll
