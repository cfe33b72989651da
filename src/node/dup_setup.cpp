#include "node/dup_setup.hpp"

#include <mpi.h>

#include <cstring>
#include <string>

#include "common/log.hpp"
#include "decisions/config.hpp"
#include "node/node_pool_share.hpp"
#include "node/node_setup.hpp"
#include "node/node_shm.hpp"
#include "node/wait.hpp"

namespace mcorecoll {

namespace {

using DupLine = NodeShm::DupLine;

constexpr std::uint64_t kRefusal = std::uint64_t{1} << 32;

static_assert(sizeof(LeaderNews) <= sizeof(DupLine::news), "the leader's news fits its duplicate's line");

// The leader's part: the segment carved, the node's answers, the leaders' split (whose size is
// the verdict: every node took part), the verdict to the node. True where the duplicate is taken.
bool lead(CommContext& parent, CommContext& child, DupLine& line, std::uint64_t k, const SegmentExtras& extras,
          const Config& config, Waiter& waiter) {
  const std::uint64_t others = static_cast<std::uint64_t>(parent.node_size - 1);
  // The line's turn before (duplicate k - 2): every node rank has read its verdict. They need
  // nothing more of this rank for that, so the wait ends.
  if (k >= 2) waiter.wait_for(line.done, others);
  line.done.store(0, std::memory_order_relaxed);
  line.answers.store(0, std::memory_order_relaxed);
  NodePool* pool = nullptr;
  const LeaderNews news = leader_news(config, parent.node_numa_os, extras, &pool);
  std::memcpy(line.news, &news, sizeof news);
  line.posted.store(k + 1, std::memory_order_release);
  bool ok = pool && news.segment != NodePool::kNoSpace;
  std::uint64_t answers = line.answers.load(std::memory_order_acquire);
  for (unsigned polls = 0; (answers & (kRefusal - 1)) < others; answers = line.answers.load(std::memory_order_acquire))
    waiter.backoff(polls);
  ok = ok && answers < kRefusal;
  MPI_Comm leaders = MPI_COMM_NULL;
  int source_rank = 0, size = 0;
  PMPI_Comm_rank(parent.leaders_source->comm, &source_rank);
  PMPI_Comm_split(parent.leaders_source->comm, ok ? 0 : MPI_UNDEFINED, source_rank, &leaders);
  if (leaders != MPI_COMM_NULL) PMPI_Comm_size(leaders, &size);
  const bool taken = size == parent.node_count;
  if (!taken && leaders != MPI_COMM_NULL) PMPI_Comm_free(&leaders);
  if (!taken && ok) NodeShm::unlease_carved(*pool, news.segment, parent.node_size, extras);
  if (taken) {
    child.leaders_comm = leaders;
    if (parent.any_thread_multiple) {
      // Its own source: a thread may duplicate it while another duplicates its parent.
      MPI_Comm source = MPI_COMM_NULL;
      PMPI_Comm_dup(leaders, &source);
      child.leaders_source = std::make_shared<LeadersSource>(source);
    } else {
      child.leaders_source = parent.leaders_source;  // its duplications come in one order
    }
    child.channel.shm = NodeShm::carved(*pool, news.segment, parent.node_size, extras);
  }
  line.verdict.store(2 * (k + 1) + (taken ? 1 : 0), std::memory_order_release);
  return taken;
}

// Another node rank's part: the news read and answered, the verdict awaited.
bool follow(CommContext& parent, CommContext& child, DupLine& line, std::uint64_t k, const SegmentExtras& extras,
            Waiter& waiter) {
  waiter.wait_for(line.posted, k + 1);
  LeaderNews news;
  std::memcpy(&news, line.news, sizeof news);
  int error = 0;
  NodePool* pool = news.segment == NodePool::kNoSpace ? nullptr : pool_at(news.pool, &error);
  // Its segment must be rung through the pool this rank's bell lives in: the parent's.
  const bool can = pool && !error && &parent.channel.shm->pool() == pool;
  line.answers.fetch_add(1 + (can ? 0 : kRefusal), std::memory_order_acq_rel);
  waiter.wait_for(line.verdict, 2 * (k + 1));
  const bool taken = (line.verdict.load(std::memory_order_acquire) & 1) != 0;
  if (taken) child.channel.shm = NodeShm::carved(*pool, news.segment, parent.node_size, extras);
  line.done.fetch_add(1, std::memory_order_acq_rel);
  return taken;
}

}  // namespace

bool sets_up_duplicates(const CommContext& parent) {
  return parent.dups_set_up && parent.pmpi_reason.empty() && (parent.set_up || parent.prepared) &&
         parent.node_count > 1 && !parent.channel.shm_failed;
}

std::unique_ptr<CommContext> set_up_duplicate(CommContext& parent, MPI_Comm child_comm, const Config& config) {
  const std::uint64_t k = parent.dups++;
  // The parent's segment carries the news: made now where no call made it yet (alike on every
  // rank: the same calls made it, or none).
  if (!ensure_shm(parent, config) || parent.channel.shm->has_private_pool()) return nullptr;
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
                              "(no room in a node's pool, or a rank that cannot map it): its next blocking or "
                              "persistent collective sets it up");
    return nullptr;
  }
  announce_bell(*child);
  child->channel.single_copy = parent.channel.single_copy < 0 ? 0 : parent.channel.single_copy;
  child->prepared = true;
  child->dup_switch_at = static_cast<std::uint64_t>(config.setup_after);
  if (config.verbose >= 1 && parent.rank == 0) {
    const std::string what = "a duplicate of a communicator of " + std::to_string(parent.size) + " ranks on " +
                             std::to_string(parent.node_count) + " nodes set up at its MPI_Comm_dup: mcorecoll's " +
                             "paths from its call " + std::to_string(child->dup_switch_at);
    if (config.verbose >= 2) say(what);
    else say_once("dup-set-up", what + " (MCORECOLL_VERBOSE=2: every one)");
  }
  return child;
}

}  // namespace mcorecoll
