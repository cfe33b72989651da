#include "gather/igather_across_nodes.hpp"

#include <optional>
#include <utility>

#include "gather/gather_across_nodes.hpp"
#include "node/comm_context.hpp"
#include "progress/rounds_operation.hpp"

namespace mcorecoll {
namespace {

class IgatherAcrossNodes final : public RoundsOperation<GatherAcrossNodesRounds> {
 public:
  IgatherAcrossNodes(CommContext& ctx, const Config& config, int root, RootedSizes sizes, const void* sendbuf,
                     int sendcount, MPI_Datatype sendtype, std::uint64_t own_bytes, void* recvbuf, RootBlocks blocks,
                     MPI_Datatype recvtype)
      : RoundsOperation(ctx), config_(config), root_(root), sizes_(std::move(sizes)) {
    const bool is_root = ctx.rank == root;
    if (!is_root || sendbuf != MPI_IN_PLACE) {
      send_.emplace(const_cast<void*>(sendbuf), sendcount, sendtype, own_bytes);
      send_->hold_type();
    }
    if (is_root) emplace_root_blocks(recv_, recvbuf, ctx.size, blocks, recvtype);
  }
  void begin() override {
    rc = MPI_SUCCESS;
    if (send_) send_->pack();
    const char* bytes = send_ ? send_->data() : nullptr;
    const std::uint64_t size = send_ ? send_->size() : 0;
    const bool is_root = ctx_.rank == root_;
    rounds_.emplace(ctx_, config_, root_, sizes_, is_root ? nullptr : bytes, is_root ? 0 : size,
                    recv_ ? &*recv_ : nullptr, is_root ? bytes : nullptr, is_root ? size : 0, rooms_, false);
  }
  void finish() override {
    if (recv_) recv_->unpack_all_but(send_ ? -1 : root_);
  }

 private:
  const Config& config_;
  int root_;
  RootedSizes sizes_;
  std::optional<MessageBytes> send_;
  std::optional<BlockBytes> recv_;
  GatherRooms rooms_;
};

}  // namespace

std::unique_ptr<Operation> make_igather_across_nodes(CommContext& ctx, const Config& config, int root,
                                                     RootedSizes sizes, const void* sendbuf, int sendcount,
                                                     MPI_Datatype sendtype, std::uint64_t own_bytes, void* recvbuf,
                                                     RootBlocks blocks, MPI_Datatype recvtype) {
  return std::make_unique<IgatherAcrossNodes>(ctx, config, root, std::move(sizes), sendbuf, sendcount, sendtype,
                                              own_bytes, recvbuf, blocks, recvtype);
}

}  // namespace mcorecoll
