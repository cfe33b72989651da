#include "reduction/ireduce_across_nodes.hpp"

#include <optional>
#include <vector>

#include "node/ring_steps.hpp"
#include "progress/leader_messages.hpp"
#include "reduction/fold.hpp"
#include "reduction/reduce_across_nodes.hpp"
#include "reduction/reduce_shm.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {
namespace {

class IreduceAcrossNodes final : public Operation {
 public:
  IreduceAcrossNodes(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf, int count,
                     MPI_Datatype type, MPI_Op op, int root, const ElementLayout& layout, std::uint64_t bytes)
      : Operation(ctx), config_(config), mine_(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf),
        recvbuf_(static_cast<char*>(recvbuf)), count_(count), type_(type), op_(op), root_(root), layout_(layout),
        bytes_(bytes), ring_(ctx, config) {
    const std::size_t image = layout.image_bytes(static_cast<std::size_t>(count));
    const std::size_t block = static_cast<std::size_t>(count) * layout.extent;
    root_node_ = root < 0 ? -1 : ctx.places[static_cast<std::size_t>(root)].node;
    leader_ = ctx.node_rank == 0;
    gets_result_ = root < 0 || ctx.rank == root;
    node_gets_result_ = root < 0 || ctx.node_index == root_node_;
    // Phase 3 runs on every node for allreduce, on the root's node for reduce when the root is
    // not its leader.
    hands_out_ = root < 0 || (ctx.node_index == root_node_ && ctx.places[static_cast<std::size_t>(root)].node_rank != 0);
    // Alike on every leader: the same count, datatype and number of nodes.
    gather_fold_ = block * static_cast<std::size_t>(ctx.node_count) <= kGatherFoldBytes;
    // Where the partial, then the result, lies on this rank: its receive buffer when the result
    // is its own, else room of the operation's (a reduce's non-root receive buffer is not ours).
    if (!gets_result_ && (leader_ || hands_out_)) room_.resize(image);
    target_ = gets_result_ ? recvbuf_ : room_.data();
    if (leader_ && node_gets_result_) {
      if (gather_fold_) {
        gathered_.resize(block * static_cast<std::size_t>(ctx.node_count));
        acc_.resize(image);
      } else if (root >= 0) {
        acc_.resize(image);  // PMPI_Ireduce's result, not in place (see reduce_across_nodes.cpp)
      }
    }
  }

  void begin() override {
    rc = MPI_SUCCESS;
    phase_ = Phase::fold;
    started_ = false;
    ring_.reset();
    if (count_ > 0) rounds_.emplace(ctx_, config_, mine_, leader_ ? target_ : nullptr, count_, type_, op_, 0, layout_);
  }

  bool step(bool may_call_mpi) override {
    if (count_ == 0) return true;
    if (phase_ == Phase::fold) {
      if (!rounds_->advance(may_call_mpi, &waiting_on)) return false;
      // The extent is at most a line (the caller checks), and every staging half holds one.
      if (rounds_->too_small()) rc = MPI_ERR_INTERN;
      else if (rounds_->rc != MPI_SUCCESS) rc = rounds_->rc;
      phase_ = leader_ ? Phase::leaders : Phase::hand_out;
    }
    // After an error the later phases still run, so that no rank waits for ever.
    if (phase_ == Phase::leaders) {
      if (!may_call_mpi || !leaders_step()) return false;
      phase_ = Phase::hand_out;
    }
    if (!hands_out_) return true;
    return ring_.step(target_, bytes_, 0, &waiting_on);
  }

 private:
  enum class Phase { fold, leaders, hand_out };

  // The leaders' exchange: posted at the first step (few nodes: one message per pair,
  // leader_messages.hpp), then tested; once in, folded or copied into the partial's place.
  bool leaders_step() {
    const int nodes = ctx_.node_count;
    const bool direct = gather_fold_ && nodes <= kDirectExchangeMaxNodes;
    if (!started_) {
      started_ = true;
      leaders_.clear();
      const MPI_Comm comm = ctx_.leaders_comm;
      char* gathered = node_gets_result_ ? gathered_.data() : nullptr;
      char* result = node_gets_result_ ? acc_.data() : nullptr;
      if (direct)
        post_partials(leaders_, ctx_, target_, gathered, count_, type_, layout_, root_node_);
      else if (gather_fold_)
        leaders_.post_library([&](MPI_Request* r) {
          return root_ < 0 ? PMPI_Iallgather(target_, count_, type_, gathered, count_, type_, comm, r)
                           : PMPI_Igather(target_, count_, type_, gathered, count_, type_, root_node_, comm, r);
        });
      else
        leaders_.post_library([&](MPI_Request* r) {
          return root_ < 0 ? PMPI_Iallreduce(MPI_IN_PLACE, target_, count_, type_, op_, comm, r)
                           : PMPI_Ireduce(target_, result, count_, type_, op_, root_node_, comm, r);
        });
    }
    int exchanged = MPI_SUCCESS;
    if (!leaders_.test(&exchanged)) return false;
    if (rc == MPI_SUCCESS) rc = exchanged;
    if (exchanged != MPI_SUCCESS || !node_gets_result_) return true;
    int combined = MPI_SUCCESS;
    if (gather_fold_) {
      // Node j's partial sits at j x block (the gathered blocks are images).
      const std::size_t block = static_cast<std::size_t>(count_) * layout_.extent;
      // (this node's is target_ itself after a direct exchange)
      combined = fold(nodes, count_, layout_, type_, op_, acc_.data(), [&](int j) {
        return direct && j == ctx_.node_index ? target_ : gathered_.data() + static_cast<std::size_t>(j) * block;
      });
    }
    if (combined == MPI_SUCCESS && (gather_fold_ || root_ >= 0))
      combined = deliver(acc_.data(), target_, count_, layout_, type_, ctx_.comm, packed_);
    if (rc == MPI_SUCCESS) rc = combined;
    return true;
  }

  const Config& config_;
  const void* mine_;
  char* recvbuf_;
  int count_;
  MPI_Datatype type_;
  MPI_Op op_;
  int root_, root_node_ = -1;
  ElementLayout layout_;
  std::uint64_t bytes_;
  bool leader_ = false, gets_result_ = false, node_gets_result_ = false, hands_out_ = false, gather_fold_ = false;
  char* target_ = nullptr;
  std::vector<char> room_, gathered_, acc_, packed_;
  std::optional<ReduceRounds> rounds_;
  NodeRingSteps ring_;
  Phase phase_ = Phase::fold;
  bool started_ = false;
  LeaderMessages leaders_;
};

}  // namespace

std::unique_ptr<Operation> make_ireduce_across_nodes(CommContext& ctx, const Config& config, const void* sendbuf,
                                                     void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                                                     int root, const ElementLayout& layout, std::uint64_t bytes) {
  return std::make_unique<IreduceAcrossNodes>(ctx, config, sendbuf, recvbuf, count, type, op, root, layout, bytes);
}

}  // namespace mcorecoll
