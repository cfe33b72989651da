#include "runtime.hpp"

#include <time.h>

#include <cstdlib>
#include <memory>
#include <mutex>
#include <set>

#include "comm_context.hpp"
#include "config.hpp"
#include "log.hpp"
#include "node_shm.hpp"
#include "lease_protocol.hpp"
#include "node_pool_share.hpp"
#include "progress.hpp"
#include "request_table.hpp"
#include "single_copy.hpp"
#include "stats.hpp"

namespace mcorecoll {
namespace {

std::mutex g_mutex;             // guards g_live
std::set<CommContext*> g_live;  // contexts not yet released

// The context of the last communicator used, to skip the attribute lookup (~140 instructions
// in Open MPI). Only when MPI runs below MPI_THREAD_MULTIPLE: then one thread at a time is
// inside MPI. The delete callback clears it, so a handle that MPI reuses after a free can
// never find a stale context.
bool g_last_allowed = false;
MPI_Comm g_last_comm = MPI_COMM_NULL;
CommContext* g_last_ctx = nullptr;

void forget_last(CommContext* ctx) {
  if (g_last_ctx == ctx || ctx == nullptr) {
    g_last_comm = MPI_COMM_NULL;
    g_last_ctx = nullptr;
  }
}

void release(CommContext* ctx) {
  // MPI_Comm_free may come while operations on the communicator are pending (their requests
  // freed early): they complete first (every rank frees it, in the same order).
  complete_operations_on(*ctx);
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_live.count(ctx) == 0) return;  // already released at finalize
    forget_last(ctx);
  }
  {
    // Persistent requests still use the context: it goes with the last of them.
    EngineLock engine;
    if (ctx->persistent_requests > 0) {
      ctx->released = true;
      return;
    }
  }
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_live.erase(ctx);
  }
  delete ctx;
}

int delete_context(MPI_Comm, int, void* attr, void*) {
  release(static_cast<CommContext*>(attr));
  return MPI_SUCCESS;
}

// Runs first inside MPI_Finalize, while MPI still works: statistics, then every context left
// (also those of communicators the application never freed).
int finalize_hook(MPI_Comm, int, void*, void*) {
  const ConfigLoad& loaded = process_config();
  if (loaded.errors.empty() && loaded.config.stats) report_stats(MPI_COMM_WORLD);
  std::set<CommContext*> left;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    left.swap(g_live);
    forget_last(nullptr);
    g_last_allowed = false;
  }
  for (CommContext* ctx : left) delete ctx;
  return MPI_SUCCESS;
}

// Once per process (function-local statics: their fast path is one load, where std::call_once
// goes through thread-local storage on every call).
void install_finalize_hook() {
  static const bool installed = [] {
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

void delete_released_context(CommContext* ctx) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_live.erase(ctx) == 0) return;
  }
  delete ctx;
}

CommContext* existing_context(MPI_Comm comm) {
  if (g_last_allowed && comm == g_last_comm) return g_last_ctx;
  void* attr = nullptr;
  int found = 0;
  PMPI_Comm_get_attr(comm, context_keyval(), &attr, &found);
  return found ? static_cast<CommContext*>(attr) : nullptr;
}

const Config& config_or_abort(MPI_Comm comm) {
  const ConfigLoad& loaded = process_config();
  if (!loaded.errors.empty()) {
    for (const auto& e : loaded.errors) say("error: " + e);
    say("error: stopping the job because of the settings above");
    stop_job(comm);
  }
  install_finalize_hook();
  return loaded.config;
}

void stop_job(MPI_Comm comm) {
  const timespec moment = {0, 300 * 1000 * 1000};
  nanosleep(&moment, nullptr);
  PMPI_Abort(comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm, 1);
  std::abort();  // PMPI_Abort does not return; this only tells the compiler so
}

void prepare_finalize() { config_or_abort(MPI_COMM_WORLD); }

CommContext& context_for(MPI_Comm comm, const Config& config) {
  if (g_last_allowed && comm == g_last_comm) return *g_last_ctx;
  void* attr = nullptr;
  int found = 0;
  PMPI_Comm_get_attr(comm, context_keyval(), &attr, &found);
  if (found) {
    if (g_last_allowed) g_last_comm = comm, g_last_ctx = static_cast<CommContext*>(attr);
    return *static_cast<CommContext*>(attr);
  }

  std::unique_ptr<CommContext> built = CommContext::build(comm, config);
  CommContext* ctx = built.release();
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_live.insert(ctx);
  }
  PMPI_Comm_set_attr(comm, context_keyval(), ctx);
  if (config.verbose >= 2) {
    if (ctx->rank == 0 || !ctx->pmpi_reason.empty())
      say("rank " + std::to_string(ctx->rank) + " of a new communicator:\n" + ctx->describe());
  }
  return *ctx;
}

std::size_t staging_area_bytes(const Config& config) {
  return static_cast<std::size_t>((config.alltoall_stage_bytes + 4095) / 4096 * 4096);
}

bool ensure_shm(CommContext& ctx, const Config& config) {
  if (ctx.shm) return true;
  if (ctx.shm_failed) return false;
  std::string why;
  SegmentExtras extras;
  // A round's data from other nodes for every rank of this node: at most one half staging
  // area's worth per rank, double-buffered like the staging areas. Only where the leaders'
  // exchange can be taken at all (forced, or a bound above 0), with fixed staging areas: their
  // tiles must be alike on every node.
  const int alltoall_mode = config.forced_path[static_cast<int>(Collective::alltoall)];
  if (ctx.node_count > 1 && (alltoall_mode > 0 || (alltoall_mode < 0 && config.alltoall_nodes_max_bytes > 0))) {
    extras.stage_bytes = staging_area_bytes(config);
    extras.inbox_bytes = static_cast<std::size_t>(ctx.node_size) * extras.stage_bytes;
  }
  // Ring cells and staging areas come from the node's pool; where it cannot be had (memfd or
  // /proc refused), from a private one in the segment, large enough for the largest ring and
  // staging leases and a lease growing next to each (the memory of before, twice).
  NodePool* pool = nullptr;
  if (config.segment != SegmentKind::posix) {
    std::string pool_why;
    pool = share_node_pool(ctx.comm, ctx.node_leader(), config.pool_max_bytes, &pool_why);
    if (!pool && config.verbose >= 1 && ctx.rank == 0)
      say_once("no-node-pool", pool_why + "; each communicator gets a private pool in its segment");
  }
  if (!pool)
    extras.private_pool_bytes = private_pool_bytes(config.ring_cells, config.ring_cell_bytes,
                                                   staging_area_bytes(config), ctx.node_size);
  ctx.shm = NodeShm::create(ctx.comm, ctx.node_leader(), ctx.node_numa_os, extras, pool, config.segment, &why);
  if (ctx.shm) {
    // The single-copy probe now, while collectives may wait: non-blocking calls need its answer
    // and may not make it.
    single_copy_allowed(ctx, config);
    // Where this rank's progress helper can be woken (0: nowhere; the peers then do not ring).
    if (pool) ctx.shm->bell_slot(ctx.node_rank).store(static_cast<std::uint64_t>(own_bell_slot(pool) + 1),
                                                     std::memory_order_release);
    if (!why.empty() && config.verbose >= 1 && ctx.rank == 0) say_once("segment-fallback", why);
    return true;
  }
  // Every rank of the communicator agrees (NodeShm::create): PMPI from here on.
  ctx.shm_failed = true;
  if (ctx.rank == 0)  // one warning for the job, not one per rank
    say_once("shm-failed", "warning: " + why + "; collectives on this communicator go to the MPI library");
  return false;
}

}  // namespace mcorecoll

namespace mcorecoll {

bool single_copy_allowed(CommContext& ctx, const Config& config) {
  if (ctx.single_copy < 0) {
    ctx.single_copy = probe_single_copy(ctx.comm, ctx.node_leader()) ? 1 : 0;
    if (!ctx.single_copy && config.verbose >= 1 && ctx.rank == 0)
      say_once("no-single-copy", "single copy (Cross Memory Attach) is refused on this node; "
                                 "large messages take copy-in/copy-out");
  }
  return ctx.single_copy == 1;
}

}  // namespace mcorecoll
