#include "allgather/iallgather_across_nodes.hpp"

#include <vector>

#include "allgather/allgather_across_nodes.hpp"
#include "allgather/allgather_bytes.hpp"
#include "progress/rounds_operation.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {

class IallgatherAcrossNodes final : public RoundsOperation<AllgatherAcrossNodesRounds> {
 public:
  IallgatherAcrossNodes(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount,
                        MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, std::uint64_t block)
      : RoundsOperation(ctx), config_(config), block_(block),
        sides_(ctx, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, block), order_(ctx, block) {
    sides_.hold_types();
    if (!ctx.nodes_in_rank_order) all_room_.resize(static_cast<std::size_t>(ctx.size) * block);
  }

  void begin() override {
    rc = MPI_SUCCESS;
    if (block_ > 0) sides_.pack();
    // Straight into the receive bytes when (node, node rank) order is rank order.
    all_ = ctx_.nodes_in_rank_order ? sides_.recv.data() : all_room_.data();
    rounds_.emplace(ctx_, config_, sides_.out(), all_, order_, block_, false);
  }

  void finish() override {
    if (block_ == 0) return;
    if (!ctx_.nodes_in_rank_order) order_.place_by_rank(ctx_, all_, sides_.recv.data(), block_);
    sides_.recv.unpack();
  }

 private:
  const Config& config_;
  std::uint64_t block_;
  AllgatherBytes sides_;
  const NodeOrder order_;
  std::vector<char> all_room_;
  char* all_ = nullptr;
};

}  // namespace

std::unique_ptr<Operation> make_iallgather_across_nodes(CommContext& ctx, const Config& config, const void* sendbuf,
                                                        int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                                        int recvcount, MPI_Datatype recvtype, std::uint64_t block) {
  return std::make_unique<IallgatherAcrossNodes>(ctx, config, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                 recvtype, block);
}

}  // namespace mcorecoll
