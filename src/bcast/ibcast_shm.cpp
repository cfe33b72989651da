#include "bcast/ibcast_shm.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "bcast/bcast_common.hpp"
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
        single_copy_(single_copy) {
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
    leaders_ = MPI_REQUEST_NULL;
    if (ctx_.rank == root_ && msg_.size() > 0) msg_.pack();
  }

  bool step(bool may_call_mpi) override {
    for (; phase_ < phase_count_; ++phase_, started_ = false) {
      const Phase& p = phases_[phase_];
      if (p.kind == Phase::leaders && !may_call_mpi) return false;
      const bool done = p.kind == Phase::leaders ? leaders_step(p.source)
                        : single_copy_                ? single_copy_step(p.source)
                        : ctx_.node_rank == p.source  ? ring_source_step(p.source)
                                                      : ring_reader_step(p.source);
      if (!done) return false;
    }
    return true;
  }

  void finish() override {
    if (ctx_.rank != root_ && msg_.size() > 0) msg_.unpack();
  }

 private:
  // The ring's cells and this message's first chunk number, at the phase's first steps (the
  // lease may have to grow: every node rank asks in this operation). False until they are known.
  bool start_ring() {
    if (started_) return true;
    if (!try_ring_cells(ctx_, config_, msg_.size(), &ring_)) return wait_for_rank(ctx_.lease_waits_for);
    started_ = true;
    first_ = ctx_.ring_chunks;
    chunks_ = ring_.chunks(msg_.size());
    next_ = 0;
    return true;
  }

  void copy_chunk(char* to, const char* from, std::uint64_t j) const {
    const std::uint64_t cell = ring_.cell_bytes;
    std::memcpy(to, from, static_cast<std::size_t>(std::min(cell, msg_.size() - j * cell)));
  }

  // Fills the chunks whose cells every reader is done with; the rest wait for the next step.
  bool ring_source_step(int source) {
    if (!start_ring()) return false;
    NodeShm& shm = *ctx_.shm;
    const std::uint64_t window = ring_.window;
    for (; next_ < chunks_; ++next_) {
      const std::uint64_t g = first_ + next_;
      if (g >= window)
        for (int r = 0; r < ctx_.node_size; ++r) {
          std::uint64_t& known = ctx_.ring_consumed_known[static_cast<std::size_t>(r)];
          if (r == source || reached(known, g + 1 - window)) continue;
          known = shm.consumed(r).load(std::memory_order_acquire);
          if (!reached(known, g + 1 - window)) return wait_for_rank(r);
        }
      const RingSpot spot = ring_.spot(g);
      copy_chunk(spot.data, msg_.data() + next_ * ring_.cell_bytes, next_);
      spot.flag->store(g + 1, std::memory_order_release);
    }
    shm.consumed(source).store(first_ + chunks_, std::memory_order_release);
    ctx_.ring_chunks = first_ + chunks_;
    return true;
  }

  // Copies out the chunks that are there, in order.
  bool ring_reader_step(int source) {
    if (!started_) {
      if (!start_ring()) return false;
      // The source is done with every chunk before its first (see bcast_shm.cpp).
      std::uint64_t& known = ctx_.ring_consumed_known[static_cast<std::size_t>(source)];
      if (reached(first_, known)) known = first_;
    }
    NodeShm& shm = *ctx_.shm;
    for (; next_ < chunks_; ++next_) {
      const std::uint64_t g = first_ + next_;
      const RingSpot spot = ring_.spot(g);
      if (!reached(spot.flag->load(std::memory_order_acquire), g + 1)) return wait_for_rank(source);
      copy_chunk(msg_.data() + next_ * ring_.cell_bytes, spot.data, next_);
      shm.consumed(ctx_.node_rank).store(g + 1, std::memory_order_release);
    }
    ctx_.ring_chunks = first_ + chunks_;
    return true;
  }

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
  RingCells ring_{};
  std::uint64_t first_ = 0, chunks_ = 0, next_ = 0, seq_ = 0;
  MPI_Request leaders_ = MPI_REQUEST_NULL;
};

}  // namespace

std::unique_ptr<Operation> make_ibcast(CommContext& ctx, const Config& config, void* buffer, int count,
                                       MPI_Datatype datatype, int root, std::uint64_t bytes,
                                       bool single_copy) {
  return std::make_unique<Ibcast>(ctx, config, buffer, count, datatype, root, bytes, single_copy);
}

}  // namespace mcorecoll
