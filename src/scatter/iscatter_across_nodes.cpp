#include "scatter/iscatter_across_nodes.hpp"

#include <optional>
#include <utility>

#include "node/comm_context.hpp"
#include "progress/rounds_operation.hpp"
#include "scatter/scatter_across_nodes.hpp"

namespace mcorecoll {
namespace {

class IscatterAcrossNodes final : public RoundsOperation<ScatterAcrossNodesRounds> {
 public:
  IscatterAcrossNodes(CommContext& ctx, const Config& config, int root, RootedSizes sizes, const void* sendbuf,
                      RootBlocks blocks, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                      std::uint64_t own_bytes)
      : RoundsOperation(ctx), config_(config), root_(root), sizes_(std::move(sizes)) {
    if (ctx.rank == root) emplace_root_blocks(send_, const_cast<void*>(sendbuf), ctx.size, blocks, sendtype);
    if (recvbuf != MPI_IN_PLACE) {
      recv_.emplace(recvbuf, recvcount, recvtype, own_bytes);
      recv_->hold_type();
    }
  }
  void begin() override {
    rc = MPI_SUCCESS;
    if (send_) send_->pack();
    rounds_.emplace(ctx_, config_, root_, sizes_, send_ ? &*send_ : nullptr, recv_ ? recv_->data() : nullptr,
                    recv_ ? recv_->size() : 0, rooms_, false);
  }
  void finish() override {
    if (recv_) recv_->unpack();
  }

 private:
  const Config& config_;
  int root_;
  RootedSizes sizes_;
  std::optional<BlockBytes> send_;
  std::optional<MessageBytes> recv_;
  ScatterRooms rooms_;
};

}  // namespace

std::unique_ptr<Operation> make_iscatter_across_nodes(CommContext& ctx, const Config& config, int root,
                                                      RootedSizes sizes, const void* sendbuf, RootBlocks blocks,
                                                      MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                                      MPI_Datatype recvtype, std::uint64_t own_bytes) {
  return std::make_unique<IscatterAcrossNodes>(ctx, config, root, std::move(sizes), sendbuf, blocks, sendtype, recvbuf,
                                               recvcount, recvtype, own_bytes);
}

}  // namespace mcorecoll
