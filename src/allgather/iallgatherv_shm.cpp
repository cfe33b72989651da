#include "allgather/iallgatherv_shm.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "common/block_bytes.hpp"
#include "exchange/exchange_operation.hpp"
#include "allgather/allgatherv_shm.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {

class Iallgatherv final : public ExchangeOperation {
 public:
  Iallgatherv(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
              std::uint64_t own, void* recvbuf, const int* recvcounts, const int* displs, MPI_Datatype recvtype)
      : ExchangeOperation(ctx, config), recv_(recvbuf, ctx.size, recvcounts, displs, recvtype) {
    recv_.hold_types();
    if (sendbuf != MPI_IN_PLACE) {
      send_.emplace(const_cast<void*>(sendbuf), sendcount, sendtype, own);
      send_->hold_type();
    }
  }
  void begin() override {
    rc = MPI_SUCCESS;
    rounds_.reset();
    const int me = ctx_.node_rank;
    if (send_) send_->pack();
    else recv_.pack(me);
    own_ = send_ ? send_->data() : recv_.data(me);
    rounds_.emplace(allgatherv_rounds(ctx_, config_, own_, recv_));
  }
  void finish() override {
    const int me = ctx_.node_rank;
    if (send_) copy_bytes(recv_.data(me), send_->data(), recv_.size(me));
    recv_.unpack_all_but(send_ ? -1 : me);
  }

 private:
  BlockBytes recv_;
  std::optional<MessageBytes> send_;
  const char* own_ = nullptr;
};

}  // namespace

std::unique_ptr<Operation> make_iallgatherv(CommContext& ctx, const Config& config, const void* sendbuf,
                                            int sendcount, MPI_Datatype sendtype, std::uint64_t own, void* recvbuf,
                                            const int* recvcounts, const int* displs, MPI_Datatype recvtype) {
  return std::make_unique<Iallgatherv>(ctx, config, sendbuf, sendcount, sendtype, own, recvbuf, recvcounts, displs,
                                       recvtype);
}

}  // namespace mcorecoll
