#include "alltoall/ialltoallv_across_nodes.hpp"

#include <optional>
#include <utility>
#include <vector>

#include "common/block_bytes.hpp"
#include "node/comm_context.hpp"
#include "progress/rounds_operation.hpp"

namespace mcorecoll {
namespace {

class IalltoallvAcrossNodes final : public RoundsOperation<AlltoallvAcrossNodesRounds> {
 public:
  IalltoallvAcrossNodes(CommContext& ctx, const Config& config, AlltoallvSizes sizes, const void* sendbuf,
                        const int* sendcounts, const int* sdispls, MPI_Datatype sendtype, void* recvbuf,
                        const int* recvcounts, const int* rdispls, MPI_Datatype recvtype)
      : RoundsOperation(ctx), config_(config), sizes_(std::move(sizes)),
        recv_(recvbuf, ctx.size, recvcounts, rdispls, recvtype) {
    recv_.hold_types();
    if (sendbuf != MPI_IN_PLACE) {
      send_.emplace(const_cast<void*>(sendbuf), ctx.size, sendcounts, sdispls, sendtype);
      send_->hold_types();
    }
  }
  void begin() override {
    rc = MPI_SUCCESS;
    rounds_.reset();
    const std::size_t n = static_cast<std::size_t>(ctx_.size);
    sent_.data.resize(n);
    sent_.size.resize(n);
    if (send_) {
      send_->pack();
    } else {
      // In place: what is sent is the receive buffer as it is now, which the call overwrites.
      recv_.pack();
      before_.resize(n);
      for (std::size_t i = 0; i < n; ++i) {
        const int r = static_cast<int>(i);
        before_[i].assign(recv_.data(r), recv_.data(r) + recv_.size(r));
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      const int r = static_cast<int>(i);
      sent_.data[i] = send_ ? send_->data(r) : before_[i].data();
      sent_.size[i] = send_ ? send_->size(r) : before_[i].size();
    }
    rounds_.emplace(ctx_, config_, sizes_, sent_, recv_, rooms_, false);
  }
  void finish() override { recv_.unpack_all_but(-1); }

 private:
  const Config& config_;
  AlltoallvSizes sizes_;
  BlockBytes recv_;
  std::optional<BlockBytes> send_;
  std::vector<std::vector<char>> before_;
  SentBlocks sent_;
  AlltoallvRooms rooms_;
};

}  // namespace

std::unique_ptr<Operation> make_ialltoallv_across_nodes(CommContext& ctx, const Config& config, AlltoallvSizes sizes,
                                                        const void* sendbuf, const int* sendcounts, const int* sdispls,
                                                        MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                                                        const int* rdispls, MPI_Datatype recvtype) {
  return std::make_unique<IalltoallvAcrossNodes>(ctx, config, std::move(sizes), sendbuf, sendcounts, sdispls, sendtype,
                                                 recvbuf, recvcounts, rdispls, recvtype);
}

}  // namespace mcorecoll
