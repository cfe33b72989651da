#include "reduction/ireduce_scatter_shm.hpp"

#include <optional>
#include <vector>

#include "reduction/fold.hpp"
#include "reduction/reduce_across_nodes.hpp"
#include "reduction/reduce_scatter_shm.hpp"
#include "reduction/reduce_shm.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {

class IreduceScatter final : public Operation {
 public:
  IreduceScatter(CommContext& ctx, const Config& config, const void* input, void* recvbuf, int total, int first,
                 int count, MPI_Datatype type, MPI_Op op, const ElementLayout& whole, const ElementLayout& block,
                 std::uint64_t bytes)
      : Operation(ctx), config_(config), input_(input), recvbuf_(static_cast<char*>(recvbuf)), total_(total),
        first_(first), count_(count), type_(type), op_(op), whole_(whole), block_(block), bytes_(bytes) {}

  // Every activation has rounds of its own; the scratch stays from one start to the next.
  void begin() override {
    rc = MPI_SUCCESS;
    if (ctx_.node_count > 1) {  // the allreduce's composition across nodes into scratch
      by_block_ = false;
      result_.resize(whole_.image_bytes(static_cast<std::size_t>(total_)));
      across_.emplace(ctx_, config_, input_, result_.data(), total_, type_, op_, -1, whole_, bytes_,
                      ReduceRooms{partial_, gathered_, folded_, packed_}, false);
      return;
    }
    by_block_ = reduce_scatter_by_block(whole_, total_);
    if (by_block_) {
      rounds_.emplace(ctx_, config_, input_, recvbuf_, total_, type_, op_, ScatterBlock{first_, count_, block_}, whole_);
      return;
    }
    result_.resize(whole_.image_bytes(static_cast<std::size_t>(total_)));
    rounds_.emplace(ctx_, config_, input_, result_.data(), total_, type_, op_, -1, whole_);
  }

  bool step(bool may_call_mpi) override {
    if (across_) {
      if (!across_->advance(may_call_mpi, &waiting_on)) return false;
      rc = across_->rc;
      return true;
    }
    if (!rounds_->advance(may_call_mpi, &waiting_on)) return false;
    // Staging areas too small for one element (a fallback area of the full pool smaller than
    // two elements): every rank alike; no library call may be made from a step, so the error
    // is reported, as the non-blocking allreduce does.
    rc = rounds_->too_small() ? MPI_ERR_INTERN : rounds_->rc;
    return true;
  }

  // With MPI_IN_PLACE the input is the receive buffer: every round of it was staged before
  // this rank's part ended, so the block may be written now.
  void finish() override {
    if (rc != MPI_SUCCESS || count_ == 0 || by_block_) return;
    rc = deliver(result_.data() + static_cast<std::size_t>(first_) * whole_.extent, recvbuf_, count_, block_, type_,
                 ctx_.comm, packed_);
  }

 private:
  const Config& config_;
  const void* input_;
  char* recvbuf_;
  int total_, first_, count_;
  MPI_Datatype type_;
  MPI_Op op_;
  ElementLayout whole_, block_;
  std::uint64_t bytes_;
  bool by_block_ = false;  // the staged rounds of this rank's block, delivered as they go
  std::vector<char> result_, packed_, partial_, gathered_, folded_;
  std::optional<ReduceRounds> rounds_;            // inside one node
  std::optional<ReduceAcrossNodesRounds> across_;  // across nodes
};

}  // namespace

std::unique_ptr<Operation> make_ireduce_scatter(CommContext& ctx, const Config& config, const void* input,
                                                void* recvbuf, int total, int first, int count, MPI_Datatype type,
                                                MPI_Op op, const ElementLayout& whole, const ElementLayout& block,
                                                std::uint64_t bytes) {
  return std::make_unique<IreduceScatter>(ctx, config, input, recvbuf, total, first, count, type, op, whole, block,
                                          bytes);
}

}  // namespace mcorecoll
