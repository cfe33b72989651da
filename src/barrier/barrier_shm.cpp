#include "barrier/barrier_shm.hpp"

#include "decisions/config.hpp"
#include "decisions/node_algorithms.hpp"
#include "node/node_shm.hpp"
#include "node/wait.hpp"
#include "node/comm_context.hpp"
#include "node/transfer_count.hpp"

namespace mcorecoll {
namespace {

// What a barrier reads of a peer's line: its flag and the vote beside it.
constexpr std::size_t kBarrierReadBytes = 16;

}  // namespace

BarrierRounds::BarrierRounds(CommContext& ctx, const Config& config, bool mine, Waiter* waiter, int algorithm)
    : ctx_(ctx),
      all_poll_(ctx.node_count == 1 &&
                node_algorithm_taken(Collective::barrier, algorithm, 0, ctx.node_size, config) == kBarrierPoll),
      direct_(leaders_direct(ctx, config)),
      waiter_(waiter),
      bit_(mine ? 1 : 0) {}

void BarrierRounds::arrive() {
  NodeShm& shm = *ctx_.channel.shm;
  shm.arrive_vote(ctx_.node_rank, turn_).store(bit_, std::memory_order_relaxed);
  std::atomic<std::uint64_t>& flag = shm.arrive(ctx_.node_rank);
  flag.store(seq_, std::memory_order_release);
  count_post(ctx_, flag, seq_);
}

void BarrierRounds::release_children() {
  if (ctx_.tree_children.empty()) return;
  NodeShm& shm = *ctx_.channel.shm;
  shm.release_vote(ctx_.node_rank, turn_).store(bit_, std::memory_order_relaxed);
  std::atomic<std::uint64_t>& flag = shm.release(ctx_.node_rank);
  flag.store(seq_, std::memory_order_release);
  count_post(ctx_, flag, seq_);
}

bool BarrierRounds::advance(bool may_call_mpi, int* waiting_on) {
  NodeShm& shm = *ctx_.channel.shm;
  // The sequence numbers are taken at the first step: steps of one communicator come in the
  // order its calls were started, on every rank alike.
  if (phase_ == Phase::start) {
    seq_ = ++ctx_.channel.seq;
    turn_ = ++ctx_.channel.barriers;
    if (all_poll_) {
      arrive();
      phase_ = Phase::poll_all;
    } else {
      phase_ = Phase::gather;
    }
  }
  if (phase_ == Phase::poll_all) {
    for (; next_ + 1 < ctx_.node_size; ++next_) {
      const int peer = (ctx_.node_rank + next_ + 1) % ctx_.node_size;
      if (!arrived(waiter_, shm.arrive(peer), seq_, peer, waiting_on)) return false;
      count_read(ctx_, shm.arrive(peer), seq_, peer, kBarrierReadBytes);
      bit_ |= shm.arrive_vote(peer, turn_).load(std::memory_order_relaxed);
    }
    phase_ = Phase::done;
  }
  if (phase_ == Phase::gather) {
    const int children = static_cast<int>(ctx_.tree_children.size());
    for (; next_ < children; ++next_) {
      const int child = ctx_.tree_children[static_cast<std::size_t>(next_)];
      if (!arrived(waiter_, shm.arrive(child), seq_, child, waiting_on)) return false;
      count_read(ctx_, shm.arrive(child), seq_, child, kBarrierReadBytes);
      bit_ |= shm.arrive_vote(child, turn_).load(std::memory_order_relaxed);
    }
    if (ctx_.node_rank != 0) {
      arrive();
      phase_ = Phase::wait_release;
    } else if (ctx_.node_count > 1) {
      phase_ = Phase::leaders;
    } else {
      release_children();
      phase_ = Phase::done;
    }
  }
  if (phase_ == Phase::leaders) {
    if (!may_call_mpi) return false;
    if (waiter_ && !direct_) {
      count_network(MCORECOLL_NETWORK_BARRIER, -1, 0);
      rc = PMPI_Barrier(ctx_.leaders_comm);
    } else {
      if (!leaders_posted_) {
        leaders_posted_ = true;
        leaders_.clear();
        if (direct_)  // one network latency (leader_messages.hpp)
          leaders_.post_barrier(ctx_.node_index, ctx_.node_count, ctx_.leaders_comm);
        else {
          count_network(MCORECOLL_NETWORK_BARRIER, -1, 0);
          leaders_.post_library([&](MPI_Request* r) { return PMPI_Ibarrier(ctx_.leaders_comm, r); });
        }
      }
      if (waiter_) rc = leaders_.wait();
      else if (!leaders_.test(&rc)) return false;
    }
    // Released also after an error (the leader reports it): the node must not wait for ever.
    release_children();
    phase_ = Phase::done;
  }
  if (phase_ == Phase::wait_release) {
    const int parent = ctx_.tree_parent;
    if (!arrived(waiter_, shm.release(parent), seq_, parent, waiting_on)) return false;
    count_read(ctx_, shm.release(parent), seq_, parent, kBarrierReadBytes);
    bit_ = shm.release_vote(parent, turn_).load(std::memory_order_relaxed);
    release_children();
    phase_ = Phase::done;
  }
  return true;
}

// The blocking forms: with the waiter, the rounds wait wherever they would stop and are over
// after one advance.
int barrier_shm(CommContext& ctx, const Config& config, int algorithm) {
  Waiter waiter = Waiter::for_context(ctx, config);
  BarrierRounds rounds(ctx, config, false, &waiter, algorithm);
  int waiting_on = -1;
  rounds.advance(true, &waiting_on);
  return rounds.rc;
}

bool node_vote(CommContext& ctx, const Config& config, bool mine) {
  Waiter waiter = Waiter::for_context(ctx, config);
  BarrierRounds rounds(ctx, config, mine, &waiter, kBarrierShm);
  int waiting_on = -1;
  rounds.advance(true, &waiting_on);
  return rounds.any();
}

}  // namespace mcorecoll
