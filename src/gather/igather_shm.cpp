#include "gather/igather_shm.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "common/block_bytes.hpp"
#include "exchange/exchange_operation.hpp"
#include "gather/gather_shm.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {

class Igather final : public ExchangeOperation {
 public:
  Igather(CommContext& ctx, const Config& config, int root, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
          std::uint64_t own, void* recvbuf, RootBlocks recv, MPI_Datatype recvtype, std::uint64_t max_block)
      : ExchangeOperation(ctx, config), root_(root), own_(own), max_block_(max_block) {
    const bool is_root = ctx.node_rank == root;
    if (!is_root || sendbuf != MPI_IN_PLACE) {
      send_.emplace(const_cast<void*>(sendbuf), sendcount, sendtype, own);
      send_->hold_type();
    }
    if (is_root) emplace_root_blocks(recv_, recvbuf, ctx.size, recv, recvtype);
  }
  void begin() override {
    rc = MPI_SUCCESS;
    rounds_.reset();
    if (max_block_ == 0) return;
    if (send_) send_->pack();
    rounds_.emplace(gather_rounds(ctx_, config_, root_, max_block_, send_ ? send_->data() : nullptr, own_,
                                  recv_ ? &*recv_ : nullptr));
  }
  void finish() override {
    if (!recv_ || max_block_ == 0) return;
    if (send_) copy_bytes(recv_->data(root_), send_->data(), std::min(own_, recv_->size(root_)));
    recv_->unpack_all_but(send_ ? -1 : root_);
  }

 private:
  int root_;
  std::uint64_t own_, max_block_;
  std::optional<MessageBytes> send_;
  std::optional<BlockBytes> recv_;
};

}  // namespace

std::unique_ptr<Operation> make_igather(CommContext& ctx, const Config& config, int root, const void* sendbuf,
                                        int sendcount, MPI_Datatype sendtype, std::uint64_t own, void* recvbuf,
                                        RootBlocks recv, MPI_Datatype recvtype, std::uint64_t max_block) {
  return std::make_unique<Igather>(ctx, config, root, sendbuf, sendcount, sendtype, own, recvbuf, recv, recvtype,
                                   max_block);
}

}  // namespace mcorecoll
