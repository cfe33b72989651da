#include "allgather/iallgatherv_shm.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "common/block_bytes.hpp"
#include "exchange/exchange_operation.hpp"
#include "allgather/allgather_bytes.hpp"
#include "allgather/allgatherv_shm.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {

class Iallgatherv final : public ExchangeOperation {
 public:
  Iallgatherv(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
              std::uint64_t own, void* recvbuf, const int* recvcounts, const int* displs, MPI_Datatype recvtype)
      : ExchangeOperation(ctx, config), sides_(ctx, sendbuf, sendcount, sendtype, own, recvbuf, recvcounts, displs,
                                               recvtype) {
    sides_.hold_types();
  }
  void begin() override {
    rc = MPI_SUCCESS;
    rounds_.reset();
    rounds_.emplace(allgatherv_rounds(ctx_, config_, sides_.pack(), sides_.recv));
  }
  void finish() override { sides_.unpack(); }

 private:
  AllgathervBytes sides_;
};

}  // namespace

std::unique_ptr<Operation> make_iallgatherv(CommContext& ctx, const Config& config, const void* sendbuf,
                                            int sendcount, MPI_Datatype sendtype, std::uint64_t own, void* recvbuf,
                                            const int* recvcounts, const int* displs, MPI_Datatype recvtype) {
  return std::make_unique<Iallgatherv>(ctx, config, sendbuf, sendcount, sendtype, own, recvbuf, recvcounts, displs,
                                       recvtype);
}

}  // namespace mcorecoll
