#include "scatter/iscatter_across_nodes.hpp"

#include <optional>

#include "exchange/exchange_operation.hpp"
#include "node/comm_context.hpp"
#include "progress/rounds_operation.hpp"
#include "scatter/scatter_across_nodes.hpp"

namespace mcorecoll {
namespace {

class IscatterAcrossNodes final : public RoundsOperation<ScatterAcrossNodesRounds> {
 public:
  IscatterAcrossNodes(CommContext& ctx, const Config& config, int root, const void* sendbuf, int sendcount,
                      MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, std::uint64_t block)
      : RoundsOperation(ctx), config_(config), root_(root), block_(block) {
    if (ctx.rank == root) emplace_root_blocks(send_, const_cast<void*>(sendbuf), ctx.size, RootBlocks{sendcount}, sendtype);
    if (recvbuf != MPI_IN_PLACE) {
      recv_.emplace(recvbuf, recvcount, recvtype, block);
      recv_->hold_type();
    }
  }
  void begin() override {
    rc = MPI_SUCCESS;
    if (send_) send_->pack();
    rounds_.emplace(ctx_, config_, root_, block_, send_ ? &*send_ : nullptr, recv_ ? recv_->data() : nullptr, rooms_,
                    false);
  }
  void finish() override {
    if (recv_ && block_ > 0) recv_->unpack();
  }

 private:
  const Config& config_;
  int root_;
  std::uint64_t block_;
  std::optional<BlockBytes> send_;
  std::optional<MessageBytes> recv_;
  ScatterRooms rooms_;
};

}  // namespace

std::unique_ptr<Operation> make_iscatter_across_nodes(CommContext& ctx, const Config& config, int root,
                                                      const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                                      void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                                      std::uint64_t block) {
  return std::make_unique<IscatterAcrossNodes>(ctx, config, root, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                               recvtype, block);
}

}  // namespace mcorecoll
