#include "alltoall/ialltoallv_across_nodes.hpp"

#include <utility>

#include "alltoall/alltoallv_sides.hpp"
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
        sides_(ctx.size, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype) {}
  void begin() override {
    rc = MPI_SUCCESS;
    rounds_.reset();
    sides_.pack();
    rounds_.emplace(ctx_, config_, sizes_, sides_.sent, sides_.recv, rooms_, false);
  }
  void finish() override { sides_.recv.unpack_all_but(-1); }

 private:
  const Config& config_;
  AlltoallvSizes sizes_;
  AlltoallvSides sides_;
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
