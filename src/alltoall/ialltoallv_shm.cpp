#include "alltoall/ialltoallv_shm.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "common/block_bytes.hpp"
#include "exchange/exchange_operation.hpp"
#include "alltoall/alltoallv_shm.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {

class Ialltoallv final : public ExchangeOperation {
 public:
  Ialltoallv(CommContext& ctx, const Config& config, const void* sendbuf, const int* sendcounts, const int* sdispls,
             MPI_Datatype sendtype, void* recvbuf, const int* recvcounts, const int* rdispls, MPI_Datatype recvtype,
             std::uint64_t max_block)
      : ExchangeOperation(ctx, config), recv_(recvbuf, ctx.size, recvcounts, rdispls, recvtype),
        max_block_(max_block) {
    recv_.hold_types();
    if (sendbuf != MPI_IN_PLACE) {
      send_.emplace(const_cast<void*>(sendbuf), ctx.size, sendcounts, sdispls, sendtype);
      send_->hold_types();
    }
  }
  void begin() override {
    rc = MPI_SUCCESS;
    rounds_.reset();
    if (send_) {
      send_->pack();
    } else {
      // In place: what is sent is the receive buffer as it is now, which the call overwrites.
      recv_.pack();
      before_.resize(static_cast<std::size_t>(recv_.blocks()));
      for (int i = 0; i < recv_.blocks(); ++i)
        before_[static_cast<std::size_t>(i)].assign(recv_.data(i), recv_.data(i) + recv_.size(i));
    }
    if (max_block_ > 0) rounds_.emplace(alltoallv_rounds(ctx_, config_, max_block_, this, &recv_));
  }
  void finish() override {
    const int me = ctx_.node_rank;
    copy_bytes(recv_.data(me), data(me), std::min(size(me), recv_.size(me)));
    recv_.unpack_all_but(-1);
  }
  // What is sent to rank d (alltoallv_rounds' Send).
  char* data(int d) { return send_ ? send_->data(d) : before_[static_cast<std::size_t>(d)].data(); }
  std::uint64_t size(int d) const { return send_ ? send_->size(d) : before_[static_cast<std::size_t>(d)].size(); }

 private:
  BlockBytes recv_;
  std::optional<BlockBytes> send_;
  std::vector<std::vector<char>> before_;
  std::uint64_t max_block_;
};

}  // namespace

std::unique_ptr<Operation> make_ialltoallv(CommContext& ctx, const Config& config, const void* sendbuf,
                                           const int* sendcounts, const int* sdispls, MPI_Datatype sendtype,
                                           void* recvbuf, const int* recvcounts, const int* rdispls,
                                           MPI_Datatype recvtype, std::uint64_t max_block) {
  return std::make_unique<Ialltoallv>(ctx, config, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                      rdispls, recvtype, max_block);
}

}  // namespace mcorecoll
