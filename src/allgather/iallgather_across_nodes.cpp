#include "allgather/iallgather_across_nodes.hpp"

#include <optional>
#include <vector>

#include "allgather/allgather_across_nodes.hpp"
#include "allgather/allgather_bytes.hpp"
#include "allgather/allgather_shm.hpp"
#include "node/ring_steps.hpp"
#include "progress/leader_messages.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {
namespace {

class IallgatherAcrossNodes final : public Operation {
 public:
  IallgatherAcrossNodes(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount,
                        MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, std::uint64_t block)
      : Operation(ctx), config_(config), block_(block),
        sides_(ctx, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, block), order_(ctx, block),
        ring_(ctx, config) {
    sides_.hold_types();
    if (!ctx.nodes_in_rank_order) all_room_.resize(static_cast<std::size_t>(ctx.size) * block);
  }

  void begin() override {
    rc = MPI_SUCCESS;
    if (block_ == 0) return;
    phase_ = Phase::node;
    started_ = false;
    ring_.reset();
    sides_.pack();
    // Straight into the receive bytes when (node, node rank) order is rank order.
    all_ = ctx_.nodes_in_rank_order ? sides_.recv.data() : all_room_.data();
    char* mine = all_ + static_cast<std::size_t>(order_.first[static_cast<std::size_t>(ctx_.node_index)]) * block_;
    rounds_.emplace(ctx_, config_, sides_.out(), mine, block_);
  }

  bool step(bool may_call_mpi) override {
    if (block_ == 0) return true;
    if (phase_ == Phase::node) {
      if (!rounds_->advance(&waiting_on)) return false;
      phase_ = ctx_.node_rank == 0 ? Phase::leaders : Phase::hand_out;
    }
    // After an error the node still gets the leader's view, so that no rank waits for ever.
    if (phase_ == Phase::leaders) {
      if (!may_call_mpi || !leaders_step()) return false;
      phase_ = Phase::hand_out;
    }
    return ring_.step(all_, static_cast<std::uint64_t>(ctx_.size) * block_, 0, &waiting_on);
  }

  void finish() override {
    if (block_ == 0) return;
    if (!ctx_.nodes_in_rank_order) order_.place_by_rank(ctx_, all_, sides_.recv.data(), block_);
    sides_.recv.unpack();
  }

 private:
  enum class Phase { node, leaders, hand_out };

  // Few nodes: each leader's blocks to every other leader, one message each
  // (leader_messages.hpp); else the MPI library's PMPI_Iallgatherv.
  bool leaders_step() {
    if (!started_) {
      started_ = true;
      leaders_.clear();
      if (ctx_.node_count <= kDirectExchangeMaxNodes)
        post_node_blocks(leaders_, ctx_, all_, order_);
      else
        leaders_.post_library([&](MPI_Request* r) {
          return PMPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all_, order_.counts.data(), order_.displs.data(),
                                  MPI_BYTE, ctx_.leaders_comm, r);
        });
    }
    return leaders_.test(&rc);
  }

  const Config& config_;
  std::uint64_t block_;
  AllgatherBytes sides_;
  const NodeOrder order_;
  std::vector<char> all_room_;
  char* all_ = nullptr;
  std::optional<AllgatherRounds> rounds_;
  NodeRingSteps ring_;
  Phase phase_ = Phase::node;
  bool started_ = false;
  LeaderMessages leaders_;
};

}  // namespace

std::unique_ptr<Operation> make_iallgather_across_nodes(CommContext& ctx, const Config& config, const void* sendbuf,
                                                        int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                                        int recvcount, MPI_Datatype recvtype, std::uint64_t block) {
  return std::make_unique<IallgatherAcrossNodes>(ctx, config, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                 recvtype, block);
}

}  // namespace mcorecoll
