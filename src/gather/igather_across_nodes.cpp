#include "gather/igather_across_nodes.hpp"

#include <optional>

#include "exchange/exchange_operation.hpp"
#include "gather/gather_across_nodes.hpp"
#include "node/comm_context.hpp"
#include "progress/rounds_operation.hpp"

namespace mcorecoll {
namespace {

class IgatherAcrossNodes final : public RoundsOperation<GatherAcrossNodesRounds> {
 public:
  IgatherAcrossNodes(CommContext& ctx, const Config& config, int root, const void* sendbuf, int sendcount,
                     MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, std::uint64_t block)
      : RoundsOperation(ctx), config_(config), root_(root), block_(block) {
    const bool is_root = ctx.rank == root;
    if (!is_root || sendbuf != MPI_IN_PLACE) {
      send_.emplace(const_cast<void*>(sendbuf), sendcount, sendtype, block);
      send_->hold_type();
    }
    if (is_root) emplace_root_blocks(recv_, recvbuf, ctx.size, RootBlocks{recvcount}, recvtype);
  }
  void begin() override {
    rc = MPI_SUCCESS;
    const char* own = nullptr;
    if (send_) {
      send_->pack();
      own = send_->data();
    } else {  // the root in place: its block of the receive buffer
      recv_->pack(root_);
      own = recv_->data(root_);
    }
    rounds_.emplace(ctx_, config_, root_, block_, own, recv_ ? &*recv_ : nullptr, !send_, rooms_, false);
  }
  void finish() override {
    if (recv_ && block_ > 0) recv_->unpack_all_but(send_ ? -1 : root_);
  }

 private:
  const Config& config_;
  int root_;
  std::uint64_t block_;
  std::optional<MessageBytes> send_;
  std::optional<BlockBytes> recv_;
  GatherRooms rooms_;
};

}  // namespace

std::unique_ptr<Operation> make_igather_across_nodes(CommContext& ctx, const Config& config, int root,
                                                     const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                                     void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                                     std::uint64_t block) {
  return std::make_unique<IgatherAcrossNodes>(ctx, config, root, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                              recvtype, block);
}

}  // namespace mcorecoll
