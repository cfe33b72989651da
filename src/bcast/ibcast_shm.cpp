#include "bcast/ibcast_shm.hpp"


#include "bcast/bcast_common.hpp"
#include "node/ring_steps.hpp"
#include "common/message_bytes.hpp"
#include "decisions/config.hpp"
#include "node/call_areas.hpp"
#include "node/node_shm.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {
namespace {

// What this rank does, in order: move the message inside its node from node rank `source`,
// or (a node leader) take part in the leaders' PMPI_Ibcast.
struct Phase {
  enum Kind { node, leaders } kind = node;
  int source = 0;  // node: the source's node rank; leaders: the root's node
};

class Ibcast final : public Operation {
 public:
  Ibcast(CommContext& ctx, const Config& config, void* buffer, int count, MPI_Datatype datatype,
         int root, std::uint64_t bytes, bool single_copy)
      : Operation(ctx), config_(config), msg_(buffer, count, datatype, bytes), root_(root),
        single_copy_(single_copy), ring_(ctx, config) {
    msg_.hold_type();
    if (bytes == 0) return;  // nothing moves; every rank sees the same size
    const RankPlace& from = ctx.places[static_cast<std::size_t>(root)];
    const bool on_root_node = from.node == ctx.node_index;
    if (on_root_node && ctx.node_size > 1) phases_[phase_count_++] = {Phase::node, from.node_rank};
    if (ctx.node_count > 1) {
      if (ctx.node_rank == 0) phases_[phase_count_++] = {Phase::leaders, from.node};
      if (!on_root_node && ctx.node_size > 1) phases_[phase_count_++] = {Phase::node, 0};
    }
  }

  void begin() override {
    rc = MPI_SUCCESS;
    phase_ = 0;
    started_ = false;
    ring_.reset();
    leaders_ = MPI_REQUEST_NULL;
    if (ctx_.rank == root_ && msg_.size() > 0) msg_.pack();
  }

  bool step(bool may_call_mpi) override {
    for (; phase_ < phase_count_; ++phase_, started_ = false, ring_.reset()) {
      const Phase& p = phases_[phase_];
      if (p.kind == Phase::leaders && !may_call_mpi) return false;
      const bool done = p.kind == Phase::leaders ? leaders_step(p.source)
                        : single_copy_                ? single_copy_step(p.source)
                                                      : ring_.step(msg_.data(), msg_.size(), p.source, &waiting_on);
      if (!done) return false;
    }
    return true;
  }

  void finish() override {
    if (ctx_.rank != root_ && msg_.size() > 0) msg_.unpack();
  }

 private:
  // Single copy: the source posts its buffer and waits for every reader's `done`; a reader
  // pulls the whole message in one step once the post is there.
  bool single_copy_step(int source) {
    NodeShm& shm = *ctx_.shm;
    if (!started_) {
      started_ = true;
      seq_ = ++ctx_.seq;
      next_ = 0;
      if (ctx_.node_rank == source) post_single_copy(shm, source, msg_.data(), msg_.size(), seq_);
    }
    if (ctx_.node_rank == source) {
      for (; next_ < static_cast<std::uint64_t>(ctx_.node_size); ++next_)
        if (static_cast<int>(next_) != source &&
            !reached(shm.done(static_cast<int>(next_)).load(std::memory_order_acquire), seq_))
          return wait_for_rank(static_cast<int>(next_));
      return true;
    }
    if (!reached(shm.post(source).load(std::memory_order_acquire), seq_)) return wait_for_rank(source);
    pull_single_copy(ctx_, config_, source, msg_.data(), msg_.size());
    shm.done(ctx_.node_rank).store(seq_, std::memory_order_release);
    return true;
  }

  // Node leaders, ranked by node index in the leaders' communicator. After an error the node
  // phase still runs (the leader reports it), so that no rank of the node waits for ever.
  bool leaders_step(int root_node) {
    if (!started_) {
      started_ = true;
      const int posted = PMPI_Ibcast(msg_.data(), static_cast<int>(msg_.size()), MPI_BYTE, root_node,
                                     ctx_.leaders_comm, &leaders_);
      if (posted != MPI_SUCCESS) {
        rc = posted;
        return true;
      }
    }
    return test_request(leaders_);
  }

  const Config& config_;
  MessageBytes msg_;
  int root_;
  bool single_copy_;
  Phase phases_[3] = {};
  std::size_t phase_count_ = 0, phase_ = 0;
  bool started_ = false;  // the current phase has taken its first step
  NodeRingSteps ring_;
  std::uint64_t next_ = 0, seq_ = 0;
  MPI_Request leaders_ = MPI_REQUEST_NULL;
};

}  // namespace

std::unique_ptr<Operation> make_ibcast(CommContext& ctx, const Config& config, void* buffer, int count,
                                       MPI_Datatype datatype, int root, std::uint64_t bytes,
                                       bool single_copy) {
  return std::make_unique<Ibcast>(ctx, config, buffer, count, datatype, root, bytes, single_copy);
}

}  // namespace mcorecoll
