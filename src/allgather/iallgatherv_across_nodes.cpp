#include "allgather/iallgatherv_across_nodes.hpp"

#include <vector>

#include "allgather/allgather_bytes.hpp"
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
      : RoundsOperation(ctx), config_(config),
        sides_(ctx, sendbuf, sendcount, sendtype, own, recvbuf, recvcounts, displs, recvtype),
        order_(ctx, sides_.recv.sizes()), all_(order_.total) {
    sides_.hold_types();
  }
  void begin() override {
    rc = MPI_SUCCESS;
    rounds_.emplace(ctx_, config_, sides_.pack(), all_.data(), order_, false);
  }
  void finish() override {
    if (order_.total == 0) return;
    place_by_rank(ctx_, order_, all_.data(), sides_.recv, ctx_.rank);
    sides_.unpack();
  }

 private:
  const Config& config_;
  AllgathervBytes sides_;
  const NodeOrderBytes order_;
  std::vector<char> all_;  // every block in node order
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
