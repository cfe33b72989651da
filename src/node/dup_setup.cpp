#include "node/dup_setup.hpp"

#include <mpi.h>

#include <cstring>
#include <string>

#include "common/device_memory.hpp"
#include "common/log.hpp"
#include "common/stop_job.hpp"
#include "decisions/config.hpp"
#include "decisions/route.hpp"
#include "node/node_pool_share.hpp"
#include "node/node_setup.hpp"
#include "node/node_shm.hpp"
#include "node/wait.hpp"

namespace mcorecoll {

namespace {

using DupLine = NodeShm::DupLine;

static_assert(sizeof(LeaderNews) <= sizeof(DupLine::news), "the leader's news fits its duplicate's line");

// What this rank knows that its parent's set-up did not: a GPU runtime loaded since (a set-up
// looks again, device_memory.hpp). The duplicate is then set up anew, where every rank says
// whether its buffers may be device memory.
bool refuses(const CommContext& parent) { return look_for_gpu_runtime() && !parent.device_memory_possible; }

// The leader's part: the segment carved, the node's answers (given before the MPI library's
// duplication, so here by now), the leaders' verdict (every node can take it) and their
// communicator, the verdict to the node. True where the duplicate is taken.
bool lead(CommContext& parent, CommContext& child, DupLine& line, std::uint64_t k, const SegmentExtras& extras,
          const Config& config, Waiter& waiter) {
  const std::uint64_t others = static_cast<std::uint64_t>(parent.node_size - 1), turn = k / 2;
  // The line's turn before (duplicate k - 2): every node rank has read its verdict. They need
  // nothing more of this rank for that, so the wait ends.
  waiter.wait_for(line.done, turn * others);
  NodePool* pool = nullptr;
  const LeaderNews news = leader_news(config, parent.node_numa_os, extras, &pool);
  std::memcpy(line.news, &news, sizeof news);  // published by the verdict's store
  const bool leased = pool && news.segment != NodePool::kNoSpace;
  waiter.wait_for(line.answers, (turn + 1) * others);
  // Refusals since this line's turn before: only this turn's node ranks added since then.
  const std::uint64_t refusals = line.refusals.load(std::memory_order_acquire);
  std::uint64_t& seen = parent.channel.dup_refusals_seen[k & 1];
  const bool ok = leased && refusals == seen && !refuses(parent);
  seen = refusals;
  // The verdict, on the spare that becomes the duplicate's leaders' communicator (nothing else
  // has run on it): every node took it.
  int mine = ok ? 1 : 0, every = 0;
  PMPI_Allreduce(&mine, &every, 1, MPI_INT, MPI_MIN, parent.leaders_source->ready());
  const bool taken = every != 0;
  if (!taken && leased) NodeShm::unlease_carved(*pool, news.segment, parent.node_size, extras);
  if (taken) {
    child.leaders_comm = parent.leaders_source->take();
    if (parent.any_thread_multiple) {
      // Its own source: a thread may duplicate it while another duplicates its parent.
      MPI_Comm source = MPI_COMM_NULL;
      PMPI_Comm_dup(child.leaders_comm, &source);
      child.leaders_source = std::make_shared<LeadersSource>(source);
    } else {
      child.leaders_source = parent.leaders_source;  // its duplications come in one order
    }
    child.channel.shm = NodeShm::carved(*pool, news.segment, parent.node_size, extras);
  }
  line.verdict.store(2 * (k + 1) + (taken ? 1 : 0), std::memory_order_release);
  return taken;
}

// Another node rank's part: the news and the verdict awaited, the view taken.
bool follow(CommContext& parent, CommContext& child, DupLine& line, std::uint64_t k, const SegmentExtras& extras,
            Waiter& waiter) {
  waiter.wait_for(line.verdict, 2 * (k + 1));
  const bool taken = (line.verdict.load(std::memory_order_acquire) & 1) != 0;
  if (taken) {
    LeaderNews news;
    std::memcpy(&news, line.news, sizeof news);
    int error = 0;
    NodePool* pool = pool_at(news.pool, &error);
    // The leader's own pool, which the parent's segment was carved from: mapped here already.
    if (!pool || &parent.channel.shm->pool() != pool) {
      say("error: a duplicate's segment lies in a node pool this rank does not map (rank " +
          std::to_string(parent.rank) + "); stopping the job.");
      stop_job(parent.comm);
    }
    child.channel.shm = NodeShm::carved(*pool, news.segment, parent.node_size, extras);
  }
  line.done.fetch_add(1, std::memory_order_acq_rel);
  return taken;
}

}  // namespace

bool answer_duplicate(CommContext& parent, const Config& config) {
  // The parent's segment carries the news: made now where no call made it yet (alike on every
  // rank: the same calls made it, or none), carved out of the leader's pool, which every node
  // rank maps (alike: the carving's verdict is agreed).
  if (!ensure_shm(parent, config) || !parent.channel.shm->carved()) return false;
  if (parent.node_rank != 0) {
    DupLine& line = parent.channel.shm->dup_line(parent.dups);
    if (refuses(parent)) line.refusals.fetch_add(1, std::memory_order_acq_rel);
    line.answers.fetch_add(1, std::memory_order_acq_rel);
  }
  return true;
}

std::unique_ptr<CommContext> set_up_duplicate(CommContext& parent, MPI_Comm child_comm, const char* call,
                                              const Config& config) {
  const std::uint64_t k = parent.dups++;
  std::unique_ptr<CommContext> child = CommContext::make(child_comm);
  child->set_up_like(parent);
  const SegmentExtras extras = segment_extras(parent, config);
  DupLine& line = parent.channel.shm->dup_line(k);
  Waiter waiter = Waiter::for_context(parent, config);
  const bool taken = parent.node_rank == 0 ? lead(parent, *child, line, k, extras, config, waiter)
                                           : follow(parent, *child, line, k, extras, waiter);
  if (!taken) {
    if (config.verbose >= 1 && parent.rank == 0)
      say_once("dup-refused", "a duplicate of a communicator across nodes could not be set up at its MPI_Comm_dup "
                              "(no room in a node's pool, or a GPU runtime loaded since its parent's set-up): its "
                              "next blocking or persistent collective sets it up");
    return nullptr;
  }
  announce_bell(*child);
  // The lanes' communicator, as a set-up makes it (comm_context.cpp): every rank is in this
  // duplication (`taken` is agreed), and the child has no operation yet.
  if (child->lanes_fit() && lanes_wanted(config)) child->make_lanes();
  child->channel.single_copy = parent.channel.single_copy;  // probed by ensure_shm(): same processes
  child->prepared = true;
  child->made_by = call;
  child->switch_at = static_cast<std::uint64_t>(config.setup_after);
  if (config.verbose >= 1 && parent.rank == 0) {
    const std::string what = "a duplicate of a communicator of " + std::to_string(parent.size) + " ranks on " +
                             std::to_string(parent.node_count) + " nodes set up at its " + call + ": mcorecoll's " +
                             "paths from its call " + std::to_string(child->switch_at);
    if (config.verbose >= 2) say(what);
    else say_once("dup-set-up", what + " (MCORECOLL_VERBOSE=2: every one)");
  }
  return child;
}

}  // namespace mcorecoll
