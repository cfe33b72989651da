#include "scatter/iscatter_shm.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "common/block_bytes.hpp"
#include "exchange/exchange_operation.hpp"
#include "scatter/scatter_shm.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {

class Iscatter final : public ExchangeOperation {
 public:
  Iscatter(CommContext& ctx, const Config& config, int root, const void* sendbuf, RootBlocks send,
           MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, std::uint64_t own,
           std::uint64_t max_block)
      : ExchangeOperation(ctx, config), root_(root), own_(own), max_block_(max_block) {
    if (ctx.node_rank == root) emplace_root_blocks(send_, const_cast<void*>(sendbuf), ctx.size, send, sendtype);
    if (recvbuf != MPI_IN_PLACE) {
      recv_.emplace(recvbuf, recvcount, recvtype, own);
      recv_->hold_type();
    }
  }
  void begin() override {
    rc = MPI_SUCCESS;
    rounds_.reset();
    if (max_block_ == 0) return;
    if (send_) send_->pack();
    rounds_.emplace(scatter_rounds(ctx_, config_, root_, max_block_, recv_ ? recv_->data() : nullptr,
                                   recv_ ? own_ : 0, send_ ? &*send_ : nullptr));
  }
  void finish() override {
    if (!recv_ || max_block_ == 0) return;
    if (send_) copy_bytes(recv_->data(), send_->data(root_), std::min(own_, send_->size(root_)));
    recv_->unpack();
  }

 private:
  int root_;
  std::uint64_t own_, max_block_;
  std::optional<BlockBytes> send_;
  std::optional<MessageBytes> recv_;
};

}  // namespace

std::unique_ptr<Operation> make_iscatter(CommContext& ctx, const Config& config, int root, const void* sendbuf,
                                         RootBlocks send, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                         MPI_Datatype recvtype, std::uint64_t own, std::uint64_t max_block) {
  return std::make_unique<Iscatter>(ctx, config, root, sendbuf, send, sendtype, recvbuf, recvcount, recvtype, own,
                                    max_block);
}

}  // namespace mcorecoll
