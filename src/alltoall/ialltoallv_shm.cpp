#include "alltoall/ialltoallv_shm.hpp"

#include <algorithm>

#include "common/block_bytes.hpp"
#include "exchange/exchange_operation.hpp"
#include "alltoall/alltoallv_shm.hpp"
#include "alltoall/alltoallv_sides.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {

class Ialltoallv final : public ExchangeOperation {
 public:
  Ialltoallv(CommContext& ctx, const Config& config, const void* sendbuf, const int* sendcounts, const int* sdispls,
             MPI_Datatype sendtype, void* recvbuf, const int* recvcounts, const int* rdispls, MPI_Datatype recvtype,
             std::uint64_t max_block)
      : ExchangeOperation(ctx, config),
        sides_(ctx.size, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype),
        max_block_(max_block) {}
  void begin() override {
    rc = MPI_SUCCESS;
    rounds_.reset();
    sides_.pack();
    if (max_block_ > 0) rounds_.emplace(alltoallv_rounds(ctx_, config_, max_block_, &sides_, &sides_.recv));
  }
  void finish() override {
    const int me = ctx_.node_rank;
    copy_bytes(sides_.recv.data(me), sides_.data(me), std::min(sides_.size(me), sides_.recv.size(me)));
    sides_.recv.unpack_all_but(-1);
  }

 private:
  AlltoallvSides sides_;
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
