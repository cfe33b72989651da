#include "entry/call_decision.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "barrier/barrier_shm.hpp"
#include "common/clock.hpp"
#include "common/log.hpp"
#include "common/stop_job.hpp"
#include "decisions/config.hpp"
#include "decisions/route.hpp"
#include "common/device_memory.hpp"
#include "entry/call_hooks.hpp"
#include "entry/fast_handoff.hpp"
#include "entry/learning.hpp"
#include "entry/runtime.hpp"
#include "exchange/rooted_sizes.hpp"
#include "exchange/staged_exchange.hpp"
#include "node/node_setup.hpp"
#include "node/setup_window.hpp"
#include "progress/operation.hpp"
#include "progress/progress.hpp"
#include "progress/progress_helper.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {

void say_why_pmpi(Collective c, const Config& config, MPI_Comm comm, const char* reason) {
  if (config.verbose < 1) return;
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  if (rank == 0)
    say_once(std::string(collective_name(c)) + ":" + reason,
             std::string(collective_name(c)) + " goes to the MPI library: " + reason);
}

const Config& call_config() { return process_config().config; }

// A v-form's header line makes every rank wait for the root, which back-to-back calls of the
// MPI library's own do not: where a look finds a size for PMPI, the next look comes after
// kHeaderLineFirst calls, and twice as many after each further look that finds PMPI again (up
// to kHeaderLineMost); a look that finds a size for the node machinery starts over.
constexpr std::uint32_t kHeaderLineFirst = 64;
constexpr std::uint32_t kHeaderLineMost = 1u << 16;

// A device buffer on a communicator whose set-up found no GPU runtime on any rank: this
// process loaded its runtime later, and the other ranks, already on mcorecoll's path, cannot
// learn of it. Going on alone would touch device memory with the CPU or leave them waiting.
[[noreturn]] void stop_for_late_gpu_runtime(const CommContext& ctx, Collective c) {
  std::string name = collective_name(c);
  name[0] = static_cast<char>(name[0] - 'a' + 'A');  // MPI_Bcast, MPI_Reduce_scatter_block
  say("error: rank " + std::to_string(ctx.rank) + " passed " + gpu_runtime_name() + " device memory to MPI_" +
      name + " on a communicator set up before this process had loaded its GPU runtime, so its ranks " +
      "cannot agree to leave the call to the MPI library. Load the runtime before the communicator's first " +
      "collectives (a CUDA-aware MPI loads it in MPI_Init), or set MCORECOLL_DISABLE=1; stopping the job.");
  stop_job(ctx.comm);
}

// Device memory is for the MPI library alone to move (call_hooks.hpp), and memory kind is
// each rank's own fact: programs mix host and device buffers across ranks. On a communicator
// where some rank has a GPU runtime the ranks agree before any byte moves, and one device
// buffer sends the call to the MPI library on every rank:
//  - a blocking call inside one node by node_vote(): one barrier of the node, carrying the bit;
//  - a persistent initialization by a collective of the MPI library: an initialization may
//    wait, as a set-up does, and its buffers are the same at every start;
//  - a non-blocking call may not wait for the others to agree, and a blocking call across
//    nodes would need its leaders to agree as well: those go to the MPI library there.
// Elsewhere (no GPU runtime anywhere at the set-up) nothing is asked: one branch.
void agree_on_device_memory(Decision& d, Collective c, Form form) {
  CommContext& ctx = *d.ctx;
  const bool mine = call_has_device_buffers();
  if (!ctx.device_memory_possible) {
    if (mine) stop_for_late_gpu_runtime(ctx, c);
    return;
  }
  if (form == Form::nonblocking)
    return fall_back(d, c, "a non-blocking call where some rank has a GPU runtime: its buffers may be device memory, "
                           "and a non-blocking call may not wait for the ranks to agree on it");
  if (form == Form::blocking && ctx.node_count > 1)
    return fall_back(d, c, "a blocking call across nodes where some rank has a GPU runtime: its buffers may be device "
                           "memory, which the ranks agree on inside one node only");
  // The communicator's started operations go first: the vote shares the barrier's lines, and a
  // peer may be waiting for them before it comes to the agreement.
  complete_operations_on(ctx);
  bool any = mine;
  if (form == Form::blocking) {
    any = node_vote(ctx, call_config(), mine);
  } else {
    int m = mine ? 1 : 0, all = 0;
    if (PMPI_Allreduce(&m, &all, 1, MPI_INT, MPI_LOR, ctx.comm) != MPI_SUCCESS)
      return fall_back(d, c, "the ranks' agreement on device memory failed");
    any = all != 0;
  }
  d.device_vote = any ? 1 : 0;
  if (any) fall_back(d, c, "device memory on some rank (only the MPI library may move it)");
}

// The v-forms whose size only a header line tells (alltoallv, gatherv, scatterv): the largest
// block their last header line found, the calls since it, and the calls from one look to the
// next. Equal on every rank (every rank reads the headers it decides from). Kept on the
// communicator (its kept states).
struct HeaderLineMemory {
  bool bands_known = false, any_band = false;  // whether auto mode takes any size (the table row)
  bool seen = false;
  bool pmpi = false;  // whether the call of that line went to PMPI (by the row, or what was learned)
  std::uint64_t largest = 0;
  std::uint32_t skipped = 0, every = 0;
};
struct HeaderLineMemories {
  HeaderLineMemory alltoallv, gatherv, scatterv;
};

HeaderLineMemory& header_line_memory(CommContext& ctx, Collective c) {
  HeaderLineMemories& kept = ctx.kept.get<HeaderLineMemories>();
  return c == Collective::alltoallv ? kept.alltoallv : c == Collective::gatherv ? kept.gatherv : kept.scatterv;
}

// Whether some size above 0 takes the node machinery in auto mode for collective c on this
// communicator (found once per communicator: its row and the settings do not change).
bool any_shm_band(CommContext& ctx, Collective c, const Config& config) {
  HeaderLineMemory& memory = header_line_memory(ctx, c);
  if (!memory.bands_known) {
    memory.bands_known = true;
    for (const Band& b : auto_bands(c, config, ctx.node_count > 1, ctx.table_rows[static_cast<int>(c)]))
      memory.any_band |= b.path != kPmpiPath && b.max_bytes > 0;
  }
  return memory.any_band;
}

// The v-forms, whose size is known only once their ranks agreed on it (a header line, a round
// across nodes, a persistent initialization's agreement): decide() runs before that, with no
// size, and route_agreed() or decide_persistent_v() routes, learns and slows down for tests.
bool sized_after_agreeing(Collective c) {
  return c == Collective::alltoallv || c == Collective::gatherv || c == Collective::scatterv;
}

// Whether learning in the run may act on collective c here (MCORECOLL_LEARN=auto, no forced
// path, a communicator the node machinery may take). Equal on every rank.
bool learns(const CommContext& ctx, const Config& config, Collective c) {
  return config.learn && ctx.pmpi_reason.empty() && config.forced_path[static_cast<int>(c)] < 0;
}

// A test-only setting (MCORECOLL_TEST_SLOWDOWN): the call slowed down by the time it names for
// collective c on `path`, so that the learning tests know which path is the slower.
void slow_down_for_test(const Config& config, Collective c, int path) {
  if (const int us = config.test_slowdown_us[static_cast<int>(c)][static_cast<std::size_t>(path)]) {
    const std::uint64_t until = monotonic_ns() + static_cast<std::uint64_t>(us) * 1000;
    while (monotonic_ns() < until) {
    }
  }
}

}  // namespace

bool spans_after_agreeing(Collective c, Form form) {
  return (c == Collective::gatherv || c == Collective::scatterv || c == Collective::alltoallv) &&
         form != Form::nonblocking;
}

bool signature_bytes(int count, MPI_Datatype type, std::uint64_t* bytes) {
  if (count < 0 || type == MPI_DATATYPE_NULL) return false;
  int size = 0;
  if (PMPI_Type_size(type, &size) != MPI_SUCCESS || size < 0) return false;
  *bytes = static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(size);
  return true;
}

bool block_sizes(const int* counts, MPI_Datatype type, int ranks, std::uint64_t* largest, std::uint64_t* total) {
  std::uint64_t type_bytes = 0;
  if (!counts || !signature_bytes(1, type, &type_bytes)) return false;
  *largest = *total = 0;
  for (int r = 0; r < ranks; ++r) {
    if (counts[r] < 0) return false;
    const std::uint64_t b = static_cast<std::uint64_t>(counts[r]) * type_bytes;
    *largest = std::max(*largest, b);
    *total += b;
  }
  return true;
}

Decision handed_on(MPI_Comm comm, std::uint64_t bytes) {
  Decision d;
  d.count = config_or_abort(comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm).counted();
  d.bytes = bytes;
  return d;
}

void count_handed_on(Collective c, MPI_Comm comm, CallKind kind) {
  const Decision d = handed_on(comm);
  if (d.count) count_call(c, kPmpiPath, 0, kind);
}

bool null_buffer(const void* buffer, std::uint64_t bytes, MPI_Datatype type) {
  if (buffer != nullptr || bytes == 0) return false;
  MPI_Aint true_lb = 0, true_extent = 0;
  PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
  return true_lb == 0;
}

void fall_back(Decision& d, Collective c, const char* reason) {
  d.explores = d.settled = false;  // its samples would time the MPI library's path as another
  if (d.path == kPmpiPath) return;
  d.path = kPmpiPath;
  say_why_pmpi(c, call_config(), d.ctx->comm, reason);
}

void name_node_algorithm(Decision& d, Collective c, std::uint64_t bytes) {
  if (d.path != kNodeChoice && !node_algorithm(c, d.path)) return;
  if (!has_node_algorithms(c) || d.ctx->node_count > 1) {
    d.path = kNodeChoice;
    return;
  }
  d.path = node_algorithm_taken(c, d.path, bytes, d.ctx->node_size, call_config());
}

void without_single_copy(Decision& d, Collective c, int copy_in_out_path) {
  if (call_config().forced_path[static_cast<int>(c)] > 0) d.path = copy_in_out_path;
  else fall_back(d, c, "single copy (Cross Memory Attach) refused");
}

void without_lanes(Decision& d, Collective c, const char* reason) {
  const Config& config = call_config();
  if (config.forced_path[static_cast<int>(c)] > 0) {
    d.path = 1;
    return;
  }
  const int path = choose_route(c, config, d.bytes, true, d.ctx->table_rows[static_cast<int>(c)], false).path;
  if (path == kPmpiPath) fall_back(d, c, reason);
  else d.path = path;
}

Decision decide(Collective c, MPI_Comm comm, std::uint64_t bytes, Form form) {
  Decision d;
  // A size its communicator gives to PMPI whatever else the call says (fast_handoff.hpp): the
  // answer of the decision below, without it. Persistent initializations decide in full.
  if (form != Form::persistent) {
    if (CommContext* ctx = handed_on_by_size(c, comm, bytes)) {
      d.ctx = ctx;
      d.bytes = bytes;
      return d;
    }
  }
  const Config& config = config_or_abort(comm);
  d.count = config.counted();
  d.bytes = bytes;
  d.ctx = &context_of(comm);
  if (!d.ctx->set_up) {
    // The communicator's Nth collective sets it up; every rank counts alike. A persistent
    // initialization sets it up at once: it promises starts to come (programs make their
    // persistent requests first), and every rank makes the same ones in the same order. A
    // non-blocking call may not wait for the other ranks: it completes a set-up prepared in
    // MPI_Init (the world's, entry/runtime.cpp), or opens or passes a set-up window
    // (node/setup_window.hpp), whose calls go to PMPI until its ranks switch together.
    const std::uint64_t call = ++d.ctx->calls_before_setup;
    if (call < static_cast<std::uint64_t>(config.setup_after) && form != Form::persistent) {
      say_why_pmpi(c, config, comm, "the communicator's first collectives, before its set-up (MCORECOLL_SETUP_AFTER)");
      return d;
    }
    if (d.ctx->window) {
      const Window state = pass_window(*d.ctx, config, call, form != Form::nonblocking);
      if (state == Window::open) {
        say_why_pmpi(c, config, comm, "a non-blocking call while its communicator is set up without waiting (its "
                                      "ranks take mcorecoll's paths together from a call they agree on)");
        return d;
      }
      if (state == Window::refused && form == Form::nonblocking) {
        say_why_pmpi(c, config, comm, d.ctx->window_refused);
        return d;
      }
    } else if (form == Form::nonblocking && !d.ctx->prepared) {
      const char* why = d.ctx->window_refused;
      if (!why && open_window(*d.ctx, prepared_world(), config, mpi_calls_while_blocked(), &why))
        why = "a non-blocking call that opens its communicator's set-up without waiting (its ranks take mcorecoll's "
              "paths together from a call they agree on)";
      say_why_pmpi(c, config, comm, why);
      return d;
    }
    set_up_context(*d.ctx, config);
  }
  CommContext& ctx = *d.ctx;
  Route route;
  if (!ctx.pmpi_reason.empty()) route.reason = ctx.pmpi_reason.c_str();
  else route = choose_route(c, config, bytes, ctx.node_count > 1, ctx.table_rows[static_cast<int>(c)]);
  // Decided before the node's shared memory is made below (a collective of the communicator):
  // a call that goes to PMPI makes nothing, so that a rank that handed it on without deciding
  // (fast_handoff.hpp: only while nothing of its own is pending) takes the same steps as one
  // that decided it in full.
  if (route.path != kPmpiPath && node_only(c) && ctx.node_count > 1) {
    // (The blocking alltoallv, gatherv and scatterv, and the persistent gatherv and scatterv,
    // are decided across nodes once their ranks agree on their sizes: decide_before_agreeing(),
    // decide_persistent_v(); nothing to say yet.)
    route = {kPmpiPath, spans_after_agreeing(c, form)
                            ? nullptr
                            : "across nodes: the MPI library's in this version (mcorecoll takes it inside one node)"};
  } else if (learns(ctx, config, c) && !sized_after_agreeing(c)) {
    // Learning in the run (entry/learning.hpp): the row's path, or the other while the class
    // explores, or the one its ranks agreed on; equal on every rank.
    const char* why = route.reason;
    route.path = learned_path(ctx, config, c, bytes, route.path, form, &why, &d.explores, &d.settled);
    route.reason = why;
  }
  if (route.path != kPmpiPath && !ctx.channel.shm) {
    if (form == Form::nonblocking) {
      route = {kPmpiPath, ctx.channel.shm_failed ? "no shared memory"
                                         : "a non-blocking call on a communicator whose shared memory is not set up "
                                           "yet (its first blocking or persistent collective on a shared-memory path sets it up)"};
    } else if (!ensure_shm(ctx, config)) {
      route = {kPmpiPath, "no shared memory"};
    }
  }
  // Across nodes an operation's leaders' part calls MPI after its start: only where that can
  // happen while the application is blocked elsewhere (equal on every rank).
  if (route.path != kPmpiPath && form != Form::blocking && ctx.node_count > 1 && !ctx.operations_may_span_nodes)
    route = {kPmpiPath, "a non-blocking or persistent operation across nodes needs MPI calls while this rank may be "
                        "blocked in another call: MPI_THREAD_MULTIPLE, or an MPI library with a progress hook (Open MPI)"};
  d.path = route.path;
  if (d.path == kPmpiPath && route.reason) say_why_pmpi(c, config, comm, route.reason);
  else if (c != Collective::barrier) agree_on_device_memory(d, c, form);
  if (!sized_after_agreeing(c)) slow_down_for_test(config, c, d.path);
  return d;
}

Decision decide_node_only(Collective c, MPI_Comm comm, std::uint64_t bytes, Form form, bool operations) {
  if (comm == MPI_COMM_NULL) return handed_on(comm);  // the MPI library's error to raise
  if (form != Form::blocking && !operations) {
    Decision d;
    const Config& config = config_or_abort(comm);
    d.count = config.counted();
    d.bytes = bytes;
    say_why_pmpi(c, config, comm, "its non-blocking form is the MPI library's: each rank knows only its own block sizes, and a non-blocking "
                                  "call may not wait for the others to agree on them (the persistent form agrees once, at its initialization)");
    return d;
  }
  return decide(c, comm, bytes, form);  // across nodes: PMPI (decide())
}

Decision decide_before_agreeing(Collective c, MPI_Comm comm) {
  Decision d = decide_node_only(c, comm, 0, Form::blocking);
  if (!d.ctx || !d.ctx->set_up || !d.ctx->pmpi_reason.empty()) return d;
  if (d.ctx->node_count > 1 && !spans_after_agreeing(c, Form::blocking)) return d;
  const Config& config = call_config();
  const int forced = config.forced_path[static_cast<int>(c)];
  if (config.disable || forced == 0) return d;
  if (d.ctx->node_count > 1) {
    // Across nodes the ranks' agreement costs a round of the network: only where some size may
    // take mcorecoll's path (forced, or a nodes bound above 0 and a row that takes it).
    if (forced < 0 && !any_shm_band(*d.ctx, c, config)) {
      fall_back(d, c, c == Collective::alltoallv
                          ? "across nodes: no size up to MCORECOLL_ALLTOALLV_NODES_MAX_BYTES (0: off) takes mcorecoll's path"
                          : "across nodes: no size up to MCORECOLL_GATHER_NODES_MAX_BYTES (0: off) takes mcorecoll's path");
      return d;
    }
    if (!d.ctx->channel.shm && !ensure_shm(*d.ctx, config)) return d;
    d.path = 1;
    d.explores = d.settled = false;
    agree_on_device_memory(d, c, Form::blocking);
    return d;
  }
  HeaderLineMemory& memory = header_line_memory(*d.ctx, c);
  if (forced < 0) {
    // Auto: the header line is worth its round only where some size above 0 takes the node
    // machinery (found once per communicator), and while the size the last line found goes to
    // PMPI (by the row, or by what its class learned), the line is skipped: it would cost a
    // round of the node on a call left to PMPI anyway. It looks again after memory.every calls
    // (programs repeat their sizes). Every rank holds the same memory, so every rank skips alike.
    if (!any_shm_band(*d.ctx, c, config)) {
      fall_back(d, c, "no size takes the node machinery (no decision table row; MCORECOLL_<X>_PATHS_NP<N> adds one)");
      return d;
    }
    if (memory.seen && ++memory.skipped < memory.every && memory.pmpi) {
      static const std::string why = "the size this communicator's last header line found goes to PMPI (it looks again "
                                     "after " + std::to_string(kHeaderLineFirst) + " calls, then after twice as many "
                                     "each time it finds PMPI again, up to " + std::to_string(kHeaderLineMost) + ")";
      fall_back(d, c, why.c_str());
      return d;
    }
  }
  memory.skipped = 0;
  if (d.path == kPmpiPath) {
    if (d.device_vote == 1) return d;  // decide()'s agreement found device memory
    if (!d.ctx->channel.shm && !ensure_shm(*d.ctx, config)) return d;
    d.path = 1;
    if (d.device_vote < 0) agree_on_device_memory(d, c, Form::blocking);  // decide()'s route was PMPI
  }
  return d;
}

bool handed_on_by_memory(Collective c, MPI_Comm comm, int root) {
  const LastCommunicator& last = g_last_communicator;
  if (comm != last.comm || comm == MPI_COMM_NULL || !engine_idle() || root < 0 || root >= last.ctx->size) return false;
  // pmpi_below is the router's answer from 0 (zero where settings force a path, or statistics
  // or verbose mode are on): below it, choose_route() in decide_before_agreeing says PMPI too.
  HeaderLineMemory& memory = header_line_memory(*last.ctx, c);
  if (!memory.seen || !memory.pmpi || memory.largest >= last.pmpi_below[static_cast<int>(c)] ||
      memory.skipped + 1 >= memory.every)
    return false;
  ++memory.skipped;
  return true;
}

void route_agreed(Decision& d, Collective c, std::uint64_t bytes) {
  d.bytes = bytes;
  CommContext& ctx = *d.ctx;
  const Config& config = call_config();
  HeaderLineMemory& memory = header_line_memory(ctx, c);
  const bool spans = ctx.node_count > 1;
  const Route route = choose_route(c, config, bytes, spans, ctx.table_rows[static_cast<int>(c)]);
  // Learning in the run (entry/learning.hpp), now that the size is equal on every rank; not
  // where the call goes to PMPI whatever the size (decide()'s agreement on device memory).
  int path = route.path;
  const char* why = route.reason;
  if (d.path != kPmpiPath && learns(ctx, config, c))
    path = learned_path(ctx, config, c, bytes, path, Form::blocking, &why, &d.explores, &d.settled);
  // Across nodes no look is skipped (handed_on_by_memory() finds nothing seen): a rank whose
  // operations are pending decides in full, and its round of agreement must meet the others'.
  // Inside one node a call whose class still explores never lets the next skip its line: the
  // class's schedule counts its calls (every rank alike).
  if (!spans) {
    const bool pmpi = path == kPmpiPath && !d.explores;
    memory.every =
        pmpi && memory.seen && memory.pmpi ? std::min(2 * memory.every, kHeaderLineMost) : kHeaderLineFirst;
    memory.seen = true;
    memory.pmpi = pmpi;
    memory.largest = bytes;
  }
  if (d.path == kPmpiPath) return;
  if (path == kPmpiPath) fall_back(d, c, why);
  else d.path = path;
  slow_down_for_test(config, c, d.path);
}

RootedSizes route_after_round(Decision& d, Collective c, int root, std::uint64_t header) {
  RootedSizes sizes = agree_rooted_sizes(*d.ctx, call_config(), root, header);
  if (sizes.largest == kNotOurs) fall_back(d, c, "arguments at the root that the MPI library must judge");
  else route_agreed(d, c, sizes.largest);
  if (d.count) count_call(c, d.path, d.bytes);
  return sizes;
}

Decision decide_persistent_v(Collective c, MPI_Comm comm, std::uint64_t mine, std::uint64_t* largest,
                             const AgreeAcross& across) {
  Decision d = decide_node_only(c, comm, 0, Form::persistent, true);
  complete_earlier_operations(d);  // before a collective of the MPI library on the communicator
  if (!d.ctx || !d.ctx->set_up || !d.ctx->pmpi_reason.empty()) return d;
  const bool spans = d.ctx->node_count > 1;
  if (spans && (!across || !spans_after_agreeing(c, Form::persistent))) return d;
  const Config& config = call_config();
  const int forced = config.forced_path[static_cast<int>(c)];
  if (config.disable || forced == 0) return d;
  const TableRow* row = d.ctx->table_rows[static_cast<int>(c)];
  // Auto: the round of agreement only where some size takes the node machinery.
  if (forced < 0 && !any_shm_band(*d.ctx, c, config)) {
    fall_back(d, c, "no size takes the node machinery (no decision table row; MCORECOLL_<X>_PATHS_NP<N> adds one)");
    return d;
  }
  d.path = kPmpiPath;  // until the agreement says otherwise
  if (spans && !d.ctx->operations_may_span_nodes) {
    say_why_pmpi(c, config, comm, "a persistent operation across nodes needs MPI calls while this rank may be "
                                  "blocked in another call: MPI_THREAD_MULTIPLE, or an MPI library with a progress "
                                  "hook (Open MPI)");
    return d;
  }
  if (call_has_device_buffers()) mine = kNotOurs;  // device memory is the MPI library's to move
  if (spans) {
    // The v-form's round across nodes: the largest, and what its phases need at the leaders
    // (on the node's lines: its shared memory first).
    if (!d.ctx->channel.shm && !ensure_shm(*d.ctx, config)) {
      say_why_pmpi(c, config, comm, "no shared memory");
      return d;
    }
    *largest = across(*d.ctx, mine);
  } else {
    // In signed integers, kNotOurs the greatest: MPICH 4.0's MPI_MAX compares MPI_UINT64_T as
    // signed (doc/mpi-defects.md), where kNotOurs would be the least and lose to any size.
    // Sizes stay below 2^62 (int counts of int-sized types).
    const std::int64_t own = mine == kNotOurs ? INT64_MAX : static_cast<std::int64_t>(mine);
    std::int64_t most = 0;
    if (PMPI_Allreduce(&own, &most, 1, MPI_INT64_T, MPI_MAX, comm) != MPI_SUCCESS) {
      say_why_pmpi(c, config, comm, "the ranks' agreement on the largest block failed");
      return d;
    }
    *largest = most == INT64_MAX ? kNotOurs : static_cast<std::uint64_t>(most);
  }
  if (*largest == kNotOurs) {
    say_why_pmpi(c, config, comm, "arguments on some rank that the MPI library must judge, or device memory");
    return d;
  }
  d.bytes = *largest;
  const Route route = choose_route(c, config, *largest, spans, row);
  // What the size's class has learned, or the row's path (learning in the run: a persistent
  // initialization takes part in no schedule).
  int path = route.path;
  const char* why = route.reason;
  if (learns(*d.ctx, config, c))
    path = learned_path(*d.ctx, config, c, *largest, path, Form::persistent, &why, &d.explores, &d.settled);
  if (path == kPmpiPath) {
    say_why_pmpi(c, config, comm, why);
  } else if (!d.ctx->channel.shm && !ensure_shm(*d.ctx, config)) {
    say_why_pmpi(c, config, comm, "no shared memory");
  } else {
    d.path = path;
  }
  return d;
}

const CommContext* intra_context(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) return nullptr;
  // The communicator's context holds its rank, size and kind (one lookup, the last
  // communicator's without any): three PMPI queries a call were most of the hand-off's cost.
  const CommContext& ctx = context_of(comm);
  return ctx.inter ? nullptr : &ctx;
}

bool rooted_here(MPI_Comm comm, int root, bool* is_root) {
  const CommContext* ctx = intra_context(comm);
  if (!ctx) return false;
  *is_root = ctx->rank == root;
  return root >= 0 && root < ctx->size;
}

int raise_error(MPI_Comm comm, int error_class) {
  PMPI_Comm_call_errhandler(comm, error_class);
  return error_class;
}

int raise_side_error(MPI_Comm comm, int count, MPI_Datatype type) {
  return raise_error(comm, count < 0 ? MPI_ERR_COUNT : type == MPI_DATATYPE_NULL ? MPI_ERR_TYPE : MPI_ERR_BUFFER);
}

void complete_earlier_operations(const Decision& d) {
  if (d.ctx) complete_operations_on(*d.ctx);
}

namespace {
// The start issue_start() makes on this thread: where its operation goes (null: none).
thread_local IssuedStart* t_start_made = nullptr;
}  // namespace

int post(const Decision&, std::unique_ptr<Operation> op, MPI_Request* request) {
  if (t_start_made) [[unlikely]] {
    t_start_made->op = std::move(op);
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
  }
  return post_operation(std::move(op), call_config(), request);
}

int issue_start(const std::function<int(MPI_Request*)>& issue, IssuedStart* made, MPI_Request* request) {
  *made = IssuedStart{};
  *request = MPI_REQUEST_NULL;
  struct Capture {  // undone however the call ends: the thread's next call posts its own
    explicit Capture(IssuedStart* into) { t_start_made = into; }
    ~Capture() { t_start_made = nullptr; }
  } capture{made};
  return issue(request);
}

bool issuing_start() { return t_start_made != nullptr; }

void note_start(const Decision& d) { t_start_made->decision = d; }

int make_persistent(Collective c, const Decision& d, std::unique_ptr<Operation> op, MPI_Request* request) {
  return make_persistent_request(std::move(op), call_config(), request, {c, d.path, d.bytes, d.count});
}

}  // namespace mcorecoll
