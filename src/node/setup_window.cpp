#include "node/setup_window.hpp"

#include <mpi.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <numeric>
#include <string>
#include <vector>

#include "common/log.hpp"
#include "decisions/config.hpp"
#include "node/comm_context.hpp"
#include "node/node_pool_share.hpp"
#include "node/node_setup.hpp"
#include "node/node_shm.hpp"
#include "node/single_copy.hpp"
#include "node/wait.hpp"

namespace mcorecoll {

namespace {

using SwitchLine = NodeShm::SwitchLine;

bool same_pool(const ShmAddress& a, const ShmAddress& b) { return !a.error && !b.error && a.dev == b.dev && a.ino == b.ino; }

// Rank 0 gives back the segment it carved, where the set-up ends without it.
void give_back_carving(const CommContext& ctx, const SetUpWindow& w) {
  const LeaderNews& news = w.all[0].news;
  if (ctx.rank == 0 && w.pool && news.segment != NodePool::kNoSpace)
    NodeShm::unlease_carved(*w.pool, news.segment, ctx.size, SegmentExtras{});
}

// Every record is here: the context is prepared from them (no communication: the communicator
// lies on one node). False where the segment cannot be had this way, alike on every rank (all
// read the same records); the leader then gives its carving back.
bool arrive(CommContext& ctx, const Config& config, SetUpWindow& w) {
  std::vector<RankRecord> records(w.all.size());
  for (std::size_t r = 0; r < w.all.size(); ++r) records[r] = w.all[r].rank;
  ctx.set_up_from(records, config);
  ctx.prepared = true;
  const LeaderNews& news = w.all[0].news;
  bool usable = ctx.pmpi_reason.empty() && ctx.node_count == 1 && news.segment != NodePool::kNoSpace;
  // A rank that maps no pool yet maps the leader's (attach()); one that maps another could not
  // be rung through this one.
  for (const Arrival& a : w.all)
    usable = usable && (same_pool(a.first_pool, news.pool) || (a.first_pool.error == ENOENT && !news.pool.error));
  if (!usable) give_back_carving(ctx, w);
  return usable;
}

// This rank's view of the segment, its single-copy verdict and its count in the switch line.
// `published` (a call that went to the MPI library) is published before the rank counts
// itself: the closer, the last to count itself, then closes the line past it. Published after,
// it could come after the close, and this rank, many calls ahead, would learn a switch it had
// passed already on the MPI library's path.
void attach(CommContext& ctx, const Config& config, SetUpWindow& w, std::uint64_t published) {
  const LeaderNews& news = w.all[0].news;
  int error = 0;
  NodePool* pool = pool_at(news.pool, &error);  // mapped already (arrive() checked)
  ctx.channel.shm = NodeShm::carved(*pool, news.segment, ctx.node_size, SegmentExtras{});
  announce_bell(ctx);
  SwitchLine& line = ctx.channel.shm->switch_line();
  if (ctx.node_rank != 0 && copy_refused(news)) line.refused.fetch_add(1);
  publish_switch(line.state, 0, published, false);
  w.closer = line.attached.fetch_add(1) + 1 == static_cast<std::uint64_t>(ctx.node_size);
  if (config.test_window_pause_us > 0 && !w.closer) usleep(static_cast<useconds_t>(config.test_window_pause_us));
}

// What call `call` publishes: a waiting call publishes the call before it, so that its ranks'
// publications bring the switch to this call (every rank makes it in the same form, and none
// publishes beyond it).
std::uint64_t published_call(std::uint64_t call, bool may_wait) { return may_wait ? call - 1 : call; }

// A rank with its view and no switch yet: what its call `call` learns or tells.
std::uint64_t agree(CommContext& ctx, const Config& config, SetUpWindow& w, std::uint64_t call, bool may_wait) {
  SwitchLine& line = ctx.channel.shm->switch_line();
  std::uint64_t at = publish_switch(line.state, 0, published_call(call, may_wait), w.closer);
  w.closer = false;  // closed now, if it was this rank's to close
  if (at || !may_wait) return at;
  Waiter waiter = Waiter::for_context(ctx, config);
  unsigned polls = 0;
  std::uint64_t state = line.state.load();
  for (; !(state & kSwitchClosed); state = line.state.load()) waiter.backoff(polls);
  return state & ~kSwitchClosed;
}

}  // namespace

bool open_window(CommContext& ctx, const CommContext* world, const Config& config, bool calls_while_blocked,
                 const char** why) {
  if (config.segment == SegmentKind::posix) {
    *why = "a non-blocking call on a communicator not set up yet: with POSIX segments (MCORECOLL_SEGMENT) only its "
           "next blocking or persistent collective sets it up";
    return false;
  }
  if (world && !world->pmpi_reason.empty()) {
    *why = "a non-blocking call on a communicator not set up yet: MPI_COMM_WORLD goes to the MPI library, so no "
           "rank can tell where the others are without waiting (its next blocking or persistent collective sets it up)";
    return false;
  }
  // Where the communicator's ranks sit, from the world's set-up: no communication. Where the
  // world cannot tell, rank 0 carves on the guess that the communicator lies on its node.
  const int n = ctx.size;
  std::vector<int> in_world(static_cast<std::size_t>(n), MPI_UNDEFINED);
  if (world) {
    std::vector<int> ranks(static_cast<std::size_t>(n));
    std::iota(ranks.begin(), ranks.end(), 0);
    MPI_Group group = MPI_GROUP_NULL, world_group = MPI_GROUP_NULL;
    PMPI_Comm_group(ctx.comm, &group);
    PMPI_Comm_group(world->comm, &world_group);
    PMPI_Group_translate_ranks(group, n, ranks.data(), world_group, in_world.data());
    PMPI_Group_free(&group);
    PMPI_Group_free(&world_group);
  }
  const bool placed = std::find(in_world.begin(), in_world.end(), MPI_UNDEFINED) == in_world.end();
  std::vector<int> numa_os;
  for (int r = 0; placed && r < n; ++r) {
    const RankPlace& place = world->places[static_cast<std::size_t>(in_world[static_cast<std::size_t>(r)])];
    if (place.node != world->places[static_cast<std::size_t>(in_world[0])].node) {
      *why = "a non-blocking call on a communicator not set up yet: it spans nodes, where only its next blocking or "
             "persistent collective sets it up (duplicates and splits of a communicator set up across nodes are set "
             "up at their making, but duplicates after two freed early in a row, splits past "
             "MCORECOLL_SETUP_AT_SPLIT, and communicators made otherwise)";
      return false;
    }
    numa_os.push_back(place.place.numa_os);
  }
  if (!placed) numa_os.assign(static_cast<std::size_t>(n), -1);  // unknown: no placement
  auto window = std::make_unique<SetUpWindow>();
  SetUpWindow& w = *window;
  w.placed = placed;
  allow_single_copy_readers();
  w.mine.rank = ctx.own_record(config, calls_while_blocked);
  w.mine.first_pool = first_pool_address();
  if (ctx.rank == 0) w.mine.news = leader_news(config, numa_os, SegmentExtras{}, &w.pool);  // node rank 0
  w.all.resize(static_cast<std::size_t>(n));
  PMPI_Iallgather(&w.mine, sizeof(Arrival), MPI_BYTE, w.all.data(), sizeof(Arrival), MPI_BYTE, ctx.comm, &w.exchange);
  ctx.window = std::move(window);
  ctx.window_opened_at = ctx.calls_before_setup;
  return true;
}

namespace {

// Completes `request`: waits where the call may, else tests. True once complete.
bool complete(MPI_Request& request, bool may_wait) {
  int done = 1;
  if (may_wait) PMPI_Wait(&request, MPI_STATUS_IGNORE);
  else PMPI_Test(&request, &done, MPI_STATUS_IGNORE);
  return done != 0;
}

// The records are in, where the world's set-up did not place the ranks: false where they lie on
// more than one node (alike on every rank); rank 0 gives its carving back.
bool on_one_node(CommContext& ctx, const SetUpWindow& w) {
  for (const Arrival& a : w.all) {
    if (a.rank.node == w.all[0].rank.node) continue;
    ctx.window_refused = "a non-blocking call on a communicator not set up yet: its ranks, which no set-up of "
                         "MPI_COMM_WORLD at MPI_Init placed, lie on more than one node, where only its next blocking "
                         "or persistent collective sets it up";
    give_back_carving(ctx, w);
    return false;
  }
  return true;
}

// The window's steps up to this rank's view: the exchange, then the view, taken as soon as the
// exchange is complete. Returns open while the exchange is not (never where `may_wait`),
// refused or failed where the set-up ends without a segment, and switched once the view is
// taken (the switch is agree()'s).
Window take_view(CommContext& ctx, const Config& config, SetUpWindow& w, std::uint64_t published, bool may_wait) {
  if (w.exchanged) return Window::switched;
  if (!complete(w.exchange, may_wait)) return Window::open;
  w.exchanged = true;
  if (!w.placed && !on_one_node(ctx, w)) return Window::refused;
  if (!arrive(ctx, config, w)) return Window::failed;
  attach(ctx, config, w, published);
  return Window::switched;
}

}  // namespace

Window pass_window(CommContext& ctx, const Config& config, std::uint64_t call, bool may_wait) {
  SetUpWindow& w = *ctx.window;
  const Window state = take_view(ctx, config, w, published_call(call, may_wait), may_wait);
  if (state == Window::open) return Window::open;
  if (state != Window::switched) {
    if (state == Window::failed && config.verbose >= 1 && ctx.rank == 0)
      say_once("window-failed", "a communicator's set-up without waiting found no segment for it (no room in the "
                                "node's pool, or its ranks map different pools): its next blocking or persistent "
                                "collective makes one");
    if (state == Window::refused && config.verbose >= 1 && ctx.rank == 0) say_once("window-refused", ctx.window_refused);
    ctx.window.reset();
    return state;
  }
  if (!w.switch_at) w.switch_at = agree(ctx, config, w, call, may_wait);
  if (!w.switch_at || call < w.switch_at) return Window::open;
  ctx.channel.single_copy = ctx.channel.shm->switch_line().refused.load() ? 0 : 1;
  ctx.window_switched_at = w.switch_at;
  if (config.verbose >= 1 && ctx.rank == 0) {
    const std::string what = "a communicator of " + std::to_string(ctx.size) + " ranks set up without waiting: " +
                             "opened at its call " + std::to_string(ctx.window_opened_at) +
                             ", mcorecoll's paths from its call " + std::to_string(w.switch_at);
    if (config.verbose >= 2) say(what);
    else say_once("window-switched", what + " (MCORECOLL_VERBOSE=2: every one)");
  }
  ctx.window.reset();
  return Window::switched;
}

bool close_window(CommContext& ctx, const Config& config) {
  if (!ctx.window) return false;
  SetUpWindow& w = *ctx.window;
  w.completing = true;
  take_view(ctx, config, w, 0, true);
  w.completing = false;
  const bool freed = w.freed;
  ctx.window.reset();  // the view, if taken, goes with the context
  return freed;
}

void drop_window(std::unique_ptr<SetUpWindow>& window) {
  if (window && !window->exchanged) (void)window.release();  // the MPI library may still write its records
  window.reset();
}

}  // namespace mcorecoll
