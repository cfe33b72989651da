#include "entry/runtime.hpp"

#include <time.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <utility>
#include <mutex>
#include <set>
#include <string>

#include "common/clock.hpp"
#include "common/device_memory.hpp"
#include "common/log.hpp"
#include "common/stop_job.hpp"
#include "decisions/config.hpp"
#include "decisions/route.hpp"
#include "decisions/settings_mismatch.hpp"
#include "decisions/stats.hpp"
#include "entry/abi_guard.hpp"
#include "entry/dispatch.hpp"
#include "entry/fast_handoff.hpp"
#include "entry/job_report.hpp"
#include "entry/learning.hpp"
#include "node/comm_context.hpp"
#include "node/dup_setup.hpp"
#include "node/lease_protocol.hpp"
#include "node/node_pool_share.hpp"
#include "node/node_setup.hpp"
#include "node/node_shm.hpp"
#include "node/setup_window.hpp"
#include "node/single_copy.hpp"
#include "progress/progress.hpp"
#include "progress/progress_helper.hpp"
#include "progress/request_table.hpp"

namespace mcorecoll {
namespace {

std::mutex g_mutex;             // guards g_live
std::set<CommContext*> g_live;  // contexts not yet released

// The last communicator used and its context (g_last_communicator, fast_handoff.hpp), to skip
// the attribute lookup (~140 instructions in Open MPI) and for the fast hand-off; kept where
// fast_handoff.hpp says.
bool g_last_allowed = false;
const std::array<std::uint64_t, kCollectiveCount> kNoneHandedOn = {};

void forget_last(CommContext* ctx) {
  if (g_last_communicator.ctx == ctx || ctx == nullptr)
    g_last_communicator = {MPI_COMM_NULL, nullptr, kNoneHandedOn.data(), kNoneHandedOn.data(), 0};
}

// The sizes of each collective this communicator gives to PMPI by size alone: found once, from
// values equal on every rank (the settings, checked at the set-up, and the table rows).
// Counted or explained calls take the full decision, which counts and explains them.
std::array<std::uint64_t, kCollectiveCount> pmpi_sizes(const CommContext& ctx, const Config& config) {
  std::array<std::uint64_t, kCollectiveCount> below = {};
  if (config.counted() || config.verbose >= 1) return below;
  for (Collective c : kAllCollectives) {
    // (Node-only collectives across nodes go to PMPI whatever the size, but a blocking alltoallv,
    // gatherv or scatterv there, whose ranks agree on the size first where some size may take
    // mcorecoll's path: decide_before_agreeing() and this answer must be equal on every rank,
    // whichever of them a rank takes.)
    bool agreeing = false;
    if (node_only(c) && ctx.node_count > 1 && spans_after_agreeing(c, Form::blocking)) {
      agreeing = config.forced_path[static_cast<int>(c)] > 0;
      for (const Band& b : auto_bands(c, config, true, ctx.table_rows[static_cast<int>(c)]))
        agreeing |= b.path != kPmpiPath && b.max_bytes > 0;
    }
    const bool every = !ctx.pmpi_reason.empty() || (node_only(c) && ctx.node_count > 1 && !agreeing);
    below[static_cast<int>(c)] =
        every ? kEverySize : pmpi_below(c, config, ctx.node_count > 1, ctx.table_rows[static_cast<int>(c)]);
  }
  return below;
}

// A context goes: the engine forgets it (its lists, under its lock), then it lets its node
// channel go (segment, leases) and its leaders' communicator.
void end_context(CommContext* ctx) {
  forget_context(*ctx);
  delete ctx;
}

bool live(CommContext* ctx) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_live.count(ctx) != 0;
}

void release(CommContext* ctx) {
  if (!live(ctx)) return;  // already released at finalize
  // MPI_Comm_free may come while operations on the communicator are pending (their requests
  // freed early): they complete first (every rank frees it, in the same order); so does a
  // set-up under way without waiting.
  complete_operations_on(*ctx);
  if (ctx->window && ctx->window->completing) {
    ctx->window->freed = true;  // close_window() completes it and releases it again
    return;
  }
  close_window(*ctx, process_config().config);
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_live.count(ctx) == 0) return;  // already released at finalize
    forget_last(ctx);
  }
  // Persistent requests still use the context: it goes with the last of them.
  if (kept_for_persistent_requests(*ctx)) return;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_live.erase(ctx);
  }
  end_context(ctx);
}

// A duplicate or a part freed tells its parent's fates whether it reached its Nth call.
void tell_fate(const CommContext& ctx) {
  if (!ctx.parent_fates) return;
  const auto setup_after = static_cast<std::uint64_t>(process_config().config.setup_after);
  const bool lived = ctx.set_up || ctx.calls_before_setup >= setup_after;
  Fates& fates = *ctx.parent_fates;
  (lived ? fates.lived_in_batch : fates.short_in_batch).fetch_add(1, std::memory_order_relaxed);
}

int delete_context(MPI_Comm, int, void* attr, void*) {
  CommContext* ctx = static_cast<CommContext*>(attr);
  // Called from inside the engine where an operation's request of the MPI library held the
  // communicator's last reference (MPICH): the release waits until the engine is left.
  after_engine([ctx] {
    if (live(ctx)) tell_fate(*ctx);  // else gone at MPI_Finalize already
    release(ctx);
  });
  return MPI_SUCCESS;
}

// What must end before the MPI library goes, once: every operation mcorecoll started (and its
// progress helper: a thread left running is a crash at the process's exit), the set-ups under
// way without waiting on communicators never freed (every rank finalizes, so their exchanges
// complete), and the learned file written.
void settle() {
  static std::atomic<bool> settled{false};
  if (settled.exchange(true)) return;
  complete_all_operations();
  run_deferred();
  std::set<CommContext*> left;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    left = g_live;
  }
  for (CommContext* ctx : left)
    if (close_window(*ctx, process_config().config)) release(ctx);
  const ConfigLoad& loaded = process_config();
  if (loaded.errors.empty() && loaded.config.learn) write_learned(loaded.config);
}

// Runs first inside MPI_Finalize: every context left (also those of communicators the
// application never freed). Where mcorecoll's MPI_Finalize did not run (a PMPI tool ahead of it
// called PMPI_Finalize), what it settles is settled here; the statistics, which need a
// reduction over the world, are then not reported.
int finalize_hook(MPI_Comm, int, void*, void*) {
  settle();
  std::set<CommContext*> left;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    left.swap(g_live);
    forget_last(nullptr);
    g_last_allowed = false;
  }
  for (CommContext* ctx : left) end_context(ctx);
  return MPI_SUCCESS;
}

// The engine's (progress/progress.hpp), under its lock: the context of a freed communicator
// whose last persistent request went.
void delete_released_context(CommContext* ctx) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_live.erase(ctx) == 0) return;
  }
  end_context(ctx);
}

// Once per process (function-local statics: their fast path is one load, where std::call_once
// goes through thread-local storage on every call).
void install_finalize_hook() {
  static const bool installed = [] {
    set_released_context_deleter(delete_released_context);
    name_forwarded(kForwardedNames, kForwardedCount);
    int initialized = 0, finalized = 0;
    PMPI_Initialized(&initialized);
    PMPI_Finalized(&finalized);
    if (!initialized || finalized) return false;  // sessions only: contexts go with their comms
    int level = MPI_THREAD_MULTIPLE;
    PMPI_Query_thread(&level);
    g_last_allowed = level < MPI_THREAD_MULTIPLE;
    int keyval = MPI_KEYVAL_INVALID;
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, finalize_hook, &keyval, nullptr);
    PMPI_Comm_set_attr(MPI_COMM_SELF, keyval, nullptr);
    return true;
  }();
  (void)installed;
}

int context_keyval() {
  static const int keyval = [] {
    int k = MPI_KEYVAL_INVALID;
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_context, &k, nullptr);
    return k;
  }();
  return keyval;
}

}  // namespace

// When MPI_Init returned: the job's time, for its report.
static std::uint64_t g_init_ns = 0;

alignas(64) LastCommunicator g_last_communicator = {MPI_COMM_NULL, nullptr, kNoneHandedOn.data(), kNoneHandedOn.data(),
                                                   0};

void check_same_settings(MPI_Comm comm, const Config& config) {
  const std::uint64_t fp = &config == &process_config().config ? process_fingerprint() : config.fingerprint();
  std::uint64_t mine[2] = {fp, ~fp}, most[2];
  PMPI_Allreduce(mine, most, 2, MPI_UINT64_T, MPI_MAX, comm);
  if (most[0] != mine[0] || most[1] != mine[1]) stop_for_different_settings(comm, config);
}

const Config& config_or_abort(MPI_Comm comm) {
  // Every call of every collective asks: once the settings are known good and the finalize
  // hook is in, the answer is one load.
  static std::atomic<const Config*> ready{nullptr};
  if (const Config* config = ready.load(std::memory_order_acquire)) return *config;
  const ConfigLoad& loaded = process_config();
  if (!loaded.errors.empty()) {
    for (const auto& e : loaded.errors) say("error: " + e);
    say("error: stopping the job because of the settings above");
    stop_job(comm);
  }
  install_finalize_hook();
  if (loaded.config.counted()) enable_call_hook(kHookTiming);  // entry/call_hooks.hpp
  ready.store(&loaded.config, std::memory_order_release);
  return loaded.config;
}

void prepare_finalize() { config_or_abort(MPI_COMM_WORLD); }

const CommContext* prepared_world() {
  int initialized = 0, finalized = 0;
  PMPI_Initialized(&initialized);
  PMPI_Finalized(&finalized);
  if (!initialized || finalized) return nullptr;
  const CommContext& world = context_of(MPI_COMM_WORLD);
  return world.prepared ? &world : nullptr;
}

int finalize() {
  prepare_finalize();
  settle();
  const ConfigLoad& loaded = process_config();
  if (loaded.errors.empty() && loaded.config.counted()) {
    const std::vector<StatsLine> lines = collect_stats(MPI_COMM_WORLD);  // on rank 0
    int rank = 0, ranks = 1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &ranks);
    const std::uint64_t job_ns = monotonic_ns() - g_init_ns;
    if (rank == 0 && loaded.config.stats) print_stats(lines, ranks, job_ns);
    if (rank == 0 && !loaded.config.report.empty()) write_report(loaded.config, lines, job_ns);
  }
  return PMPI_Finalize();
}

namespace {

// The context cached on `comm`, or null where it has none yet.
CommContext* cached_context(MPI_Comm comm) {
  void* attr = nullptr;
  int found = 0;
  PMPI_Comm_get_attr(comm, context_keyval(), &attr, &found);
  return found ? static_cast<CommContext*>(attr) : nullptr;
}

// `ctx` cached on `comm`, and live until the communicator goes.
CommContext* cache_context(MPI_Comm comm, std::unique_ptr<CommContext> made) {
  CommContext* ctx = made.release();
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_live.insert(ctx);
  }
  PMPI_Comm_set_attr(comm, context_keyval(), ctx);
  return ctx;
}

}  // namespace

CommContext& context_of(MPI_Comm comm) {
  if (g_last_allowed && comm == g_last_communicator.comm) return *g_last_communicator.ctx;
  CommContext* ctx = cached_context(comm);
  if (!ctx) ctx = cache_context(comm, CommContext::make(comm));
  if (g_last_allowed)
    g_last_communicator = {comm, ctx, ctx->pmpi_below.data(), ctx->learned_pmpi.data(), ctx->rank};
  return *ctx;
}

// Duplicates (or parts) freed before their Nth call, with none between that lived longer (Fates),
// after which the next are set up like any other communicator (by their Nth call), until one
// lives: a program that duplicates or splits, calls a few times and frees, in a loop, pays the
// set-up at the making twice, not at every making.
constexpr int kShortLivesToDefer = 2;

int comm_dup(MPI_Comm comm, bool with_info, MPI_Info info, MPI_Comm* newcomm) {
  // Only a parent with a context of its own, set up: a duplication never makes one.
  CommContext* parent = cached_context(comm);
  const Config* config = parent && parent->dups_set_up ? &config_or_abort(comm) : nullptr;
  // Its duplicates' fates are equal on every rank only below MPI_THREAD_MULTIPLE (Fates).
  const std::shared_ptr<Fates> fates = config && !parent->any_thread_multiple ? parent->dup_fates : nullptr;
  if (fates && fates->fold() >= kShortLivesToDefer) config = nullptr;
  if (config && !answer_duplicate(*parent, *config)) config = nullptr;
  const int rc = with_info ? PMPI_Comm_dup_with_info(comm, info, newcomm) : PMPI_Comm_dup(comm, newcomm);
  if (rc != MPI_SUCCESS || *newcomm == MPI_COMM_NULL) return rc;
  const char* call = with_info ? "MPI_Comm_dup_with_info" : "MPI_Comm_dup";
  std::unique_ptr<CommContext> child = config ? set_up_duplicate(*parent, *newcomm, call, *config) : nullptr;
  // Deferred, its fate is followed all the same: one that reaches its Nth call brings the set-up
  // at the duplication back.
  if (!child && fates) child = CommContext::make(*newcomm);
  if (child) {
    child->parent_fates = fates;
    cache_context(*newcomm, std::move(child));
  }
  return rc;
}

namespace {

// A context's set-up, but for its last step, which its Nth collective takes in any form
// without communication (set_up_context()): where every rank is, its rows, its node's shared
// memory. Collective over its communicator.
void prepare(CommContext& ctx, const Config& config) {
  ctx.set_up_now(config, mpi_calls_while_blocked());
  if (ctx.pmpi_reason.empty()) ensure_shm(ctx, config);
  ctx.prepared = true;
}

// The set-up of `part`, made by `call` from a communicator set up across nodes, inside that
// call, where every rank may wait: its ranks sit on nodes of their own choosing, so its set-up
// is any communicator's; what it saves is the wait for a blocking call that a communicator used
// only with non-blocking collectives never makes. Collective over `part`.
void set_up_part(MPI_Comm part, const char* call, const Config& config, std::shared_ptr<Fates> fates = nullptr) {
  std::unique_ptr<CommContext> child = CommContext::make(part);  // two or more ranks of an intracommunicator
  child->parent_fates = std::move(fates);
  prepare(*child, config);
  child->made_by = call;
  child->switch_at = static_cast<std::uint64_t>(config.setup_after);
  if (config.verbose >= 1 && child->rank == 0) {
    const std::string then = child->pmpi_reason.empty()
                                 ? "mcorecoll's paths from its call " + std::to_string(child->switch_at)
                                 : "every call to the MPI library (" + child->pmpi_reason + ")";
    const std::string what = std::string("a communicator of ") + std::to_string(child->size) + " ranks on " +
                             std::to_string(child->node_count) + " nodes set up at its " + call + ": " + then;
    if (config.verbose >= 2) say(what);
    else say_once("split-set-up", what + " (MCORECOLL_VERBOSE=2: every one)");
  }
  cache_context(part, std::move(child));
}

// A part of `comm` made by `make` (the MPI library's split or create), set up inside it where
// it spans nodes, from a parent set up across nodes, among the parent's first
// Config::setup_at_split, unless its parts were freed early of late (Fates). A split is
// collective over `comm`, so its count is equal on every rank; a part made `by_members` alone
// (MPI_Comm_create_group) is counted by each member apart; the fates of the parts a rank was in
// differ between the part's members. They agree in one allreduce (a small one among ranks that
// are all inside this call). A part inside one node needs none: its set-up is made without
// waiting (node/setup_window.hpp).
// A making inside another (MPICH's Fortran bindings call the C MPI_ names, which are ours): the
// outer one counts and sets up, once.
thread_local int t_making = 0;

template <class Make>
int make_part(MPI_Comm comm, const char* call, MPI_Comm* newcomm, Make make, bool by_members = false) {
  if (t_making) return make();
  struct Making {
    Making() { ++t_making; }
    ~Making() { --t_making; }
  };
  CommContext* parent = cached_context(comm);
  const Config* config = parent && parent->splits_set_up ? &config_or_abort(comm) : nullptr;
  const auto count = config ? static_cast<std::uint64_t>(config->setup_at_split) : 0;
  if (config && !by_members && parent->splits++ >= count) config = nullptr;
  int rc = MPI_SUCCESS;
  {
    Making making;
    rc = make();
  }
  if (rc != MPI_SUCCESS || *newcomm == MPI_COMM_NULL || !config || !parent->spans_nodes(*newcomm)) return rc;
  const std::shared_ptr<Fates>& fates = parent->part_fates;
  int mine = !by_members || parent->group_parts++ < count ? 1 : 0, every = 0;
  if (fates && fates->fold() >= kShortLivesToDefer) mine = 0;
  PMPI_Allreduce(&mine, &every, 1, MPI_INT, MPI_MIN, *newcomm);
  if (every) {
    set_up_part(*newcomm, call, *config, fates);
  } else if (fates) {
    // Deferred, its fate is followed all the same: one that reaches its Nth call brings the
    // set-up at the making back.
    std::unique_ptr<CommContext> child = CommContext::make(*newcomm);
    child->parent_fates = fates;
    cache_context(*newcomm, std::move(child));
  }
  return rc;
}

}  // namespace

int comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  return make_part(comm, "MPI_Comm_split", newcomm, [&] { return PMPI_Comm_split(comm, color, key, newcomm); });
}

int comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm* newcomm) {
  return make_part(comm, "MPI_Comm_split_type", newcomm,
                   [&] { return PMPI_Comm_split_type(comm, type, key, info, newcomm); });
}

int comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  return make_part(comm, "MPI_Comm_create", newcomm, [&] { return PMPI_Comm_create(comm, group, newcomm); });
}

int comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm) {
  return make_part(comm, "MPI_Comm_create_group", newcomm,
                   [&] { return PMPI_Comm_create_group(comm, group, tag, newcomm); }, true);
}

int cart_create(MPI_Comm comm, int ndims, const int* dims, const int* periods, int reorder, MPI_Comm* newcomm) {
  return make_part(comm, "MPI_Cart_create", newcomm,
                   [&] { return PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm); });
}

int cart_sub(MPI_Comm comm, const int* remain_dims, MPI_Comm* newcomm) {
  return make_part(comm, "MPI_Cart_sub", newcomm, [&] { return PMPI_Cart_sub(comm, remain_dims, newcomm); });
}

int graph_create(MPI_Comm comm, int nnodes, const int* index, const int* edges, int reorder, MPI_Comm* newcomm) {
  return make_part(comm, "MPI_Graph_create", newcomm,
                   [&] { return PMPI_Graph_create(comm, nnodes, index, edges, reorder, newcomm); });
}

int dist_graph_create(MPI_Comm comm, int n, const int* sources, const int* degrees, const int* destinations,
                      const int* weights, MPI_Info info, int reorder, MPI_Comm* newcomm) {
  return make_part(comm, "MPI_Dist_graph_create", newcomm, [&] {
    return PMPI_Dist_graph_create(comm, n, sources, degrees, destinations, weights, info, reorder, newcomm);
  });
}

int dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int* sources, const int* sourceweights,
                               int outdegree, const int* destinations, const int* destweights, MPI_Info info,
                               int reorder, MPI_Comm* newcomm) {
  return make_part(comm, "MPI_Dist_graph_create_adjacent", newcomm, [&] {
    return PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree, destinations,
                                           destweights, info, reorder, newcomm);
  });
}

int part_made_by(MPI_Comm comm, const char* call, MPI_Comm* newcomm, const std::function<int()>& make) {
  return make_part(comm, call, newcomm, make);
}

#if MCORECOLL_MPI_HAS_SESSIONS
// No parent tells where its ranks sit: its members learn in one small allreduce whether it spans
// nodes (the largest and the smallest hash of their node keys), whether operations may span
// nodes and its leaders' communicator may be made on every one (not under Open MPI without a
// world), and whether each is within its count; a communicator of one node is left to its
// set-up without waiting.
int comm_create_from_group(MPI_Group group, const char* tag, MPI_Info info, MPI_Errhandler errhandler,
                           MPI_Comm* newcomm) {
  const int rc = PMPI_Comm_create_from_group(group, tag, info, errhandler, newcomm);
  int size = 1;
  if (rc != MPI_SUCCESS || *newcomm == MPI_COMM_NULL || passing_through()) return rc;
  PMPI_Comm_size(*newcomm, &size);
  if (size < 2) return rc;
  const Config& config = config_or_abort(*newcomm);
  if (config.disable || config.setup_at_split == 0) return rc;
  static std::atomic<std::uint64_t> made{0};
  const bool within = made.fetch_add(1) < static_cast<std::uint64_t>(config.setup_at_split);
  const std::uint64_t node = node_hash(config);
  const bool may = within && mpi_calls_while_blocked() && may_create_communicators();
  std::uint64_t mine[3] = {node, ~node, may ? 0u : 1u}, most[3];
  PMPI_Allreduce(mine, most, 3, MPI_UINT64_T, MPI_MAX, *newcomm);
  const bool spans = most[0] != ~most[1];
  if (spans && most[2] == 0) set_up_part(*newcomm, "MPI_Comm_create_from_group", config);
  return rc;
}
#endif

void set_up_context(CommContext& ctx, const Config& config) {
  if (ctx.set_up) return;
  if (!ctx.prepared) ctx.set_up_now(config, mpi_calls_while_blocked());  // else made in MPI_Init
  ctx.set_up = true;
  ctx.pmpi_below = pmpi_sizes(ctx, config);
  if (config.verbose >= 2) {
    if (ctx.rank == 0 || !ctx.pmpi_reason.empty())
      say("rank " + std::to_string(ctx.rank) + " of a new communicator:\n" + ctx.describe());
  }
}

CommContext& context_for(MPI_Comm comm, const Config& config) {
  CommContext& ctx = context_of(comm);
  // A set-up under way without waiting ends here, as at a blocking collective (this call is
  // collective too, and counts as one alike on every rank).
  if (ctx.window) pass_window(ctx, config, ++ctx.calls_before_setup, true);
  // A prepared context (the world's) knows all it would tell already; its last step is its
  // Nth collective's, taken alike on every rank, not this call's, which some ranks may skip.
  if (!ctx.prepared) set_up_context(ctx, config);
  return ctx;
}

// The world's set-up, but for its last step, now, inside MPI_Init, where every rank is and may
// wait: where its ranks sit, its rows, its node's shared memory. A set-up waits for the other
// ranks, which a non-blocking call may not do, so a communicator whose collectives are all
// non-blocking is never set up otherwise. The world's Nth collective (MCORECOLL_SETUP_AFTER),
// in any form, then completes it without communication; the calls before it are counted alike
// on every rank, as for any communicator.
void prepare_world(const Config& config) {
  CommContext& ctx = context_of(MPI_COMM_WORLD);
  if (ctx.set_up || ctx.prepared) return;
  prepare(ctx, config);
  if (config.learn) read_learned(ctx, config);
}

void after_init() {
  static std::atomic<bool> done{false};
  if (passing_through() || done.exchange(true)) return;
  g_init_ns = monotonic_ns();
  look_for_gpu_runtime();  // a CUDA-aware MPI has just loaded its runtime (device_memory.hpp)
  int initialized = 0;
  PMPI_Initialized(&initialized);
  if (!initialized) return;
  const Config& config = config_or_abort(MPI_COMM_WORLD);
  // A profiler preloaded with mcorecoll: which order, once.
  if (config.verbose >= 1) {
    if (const std::string others = other_tools(); !others.empty()) {
      int rank = 0;
      PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
      if (rank == 0) say(others);
    }
  }
  check_same_settings(MPI_COMM_WORLD, config);
  if (!config.disable && config.setup_world_at_init) prepare_world(config);
}

int init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) after_init();
  return rc;
}

int init_thread(int* argc, char*** argv, int required, int* provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) after_init();
  return rc;
}

}  // namespace mcorecoll
