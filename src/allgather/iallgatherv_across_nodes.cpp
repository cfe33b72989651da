#include "allgather/iallgatherv_across_nodes.hpp"

#include <optional>
#include <vector>

#include "allgather/allgatherv_across_nodes.hpp"
#include "common/block_bytes.hpp"
#include "node/comm_context.hpp"
#include "progress/rounds_operation.hpp"

namespace mcorecoll {
namespace {

class IallgathervAcrossNodes final : public RoundsOperation<AllgathervAcrossNodesRounds> {
 public:
  IallgathervAcrossNodes(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount,
                         MPI_Datatype sendtype, std::uint64_t own, void* recvbuf, const int* recvcounts,
                         const int* displs, MPI_Datatype recvtype)
      : RoundsOperation(ctx), config_(config), recv_(recvbuf, ctx.size, recvcounts, displs, recvtype),
        order_(ctx, recv_.sizes()), all_(order_.total) {
    recv_.hold_types();
    if (sendbuf != MPI_IN_PLACE) {
      send_.emplace(const_cast<void*>(sendbuf), sendcount, sendtype, own);
      send_->hold_type();
    }
  }
  void begin() override {
    rc = MPI_SUCCESS;
    const int me = ctx_.rank;
    if (send_) send_->pack();
    else recv_.pack(me);
    rounds_.emplace(ctx_, config_, send_ ? send_->data() : recv_.data(me), all_.data(), order_, false);
  }
  void finish() override {
    if (order_.total == 0) return;
    const int me = ctx_.rank;
    place_by_rank(ctx_, order_, all_.data(), recv_, me);
    if (send_) copy_bytes(recv_.data(me), send_->data(), recv_.size(me));
    recv_.unpack_all_but(send_ ? -1 : me);
  }

 private:
  const Config& config_;
  BlockBytes recv_;
  const NodeOrderBytes order_;
  std::vector<char> all_;  // every block in node order
  std::optional<MessageBytes> send_;
};

}  // namespace

std::unique_ptr<Operation> make_iallgatherv_across_nodes(CommContext& ctx, const Config& config, const void* sendbuf,
                                                         int sendcount, MPI_Datatype sendtype, std::uint64_t own,
                                                         void* recvbuf, const int* recvcounts, const int* displs,
                                                         MPI_Datatype recvtype) {
  return std::make_unique<IallgathervAcrossNodes>(ctx, config, sendbuf, sendcount, sendtype, own, recvbuf, recvcounts,
                                                  displs, recvtype);
}

}  // namespace mcorecoll
