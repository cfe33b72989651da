#include "reduction/iscan_across_nodes.hpp"

#include <vector>

#include "progress/rounds_operation.hpp"
#include "reduction/scan_across_nodes.hpp"

namespace mcorecoll {
namespace {

class IscanAcrossNodes final : public RoundsOperation<ScanAcrossNodesRounds> {
 public:
  IscanAcrossNodes(CommContext& ctx, const Config& config, bool exclusive, const void* sendbuf, void* recvbuf,
                   int count, MPI_Datatype type, MPI_Op op, const ElementLayout& layout)
      : RoundsOperation(ctx), config_(config), exclusive_(exclusive),
        input_(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf), recvbuf_(recvbuf), count_(count), type_(type), op_(op),
        layout_(layout) {}

  void begin() override {
    rc = MPI_SUCCESS;
    rounds_.emplace(ctx_, config_, exclusive_, input_, recvbuf_, count_, type_, op_, layout_,
                    ScanRooms{total_, before_, prefix_, packed_}, false);
  }

 private:
  const Config& config_;
  bool exclusive_;
  const void* input_;
  void* recvbuf_;
  int count_;
  MPI_Datatype type_;
  MPI_Op op_;
  ElementLayout layout_;
  std::vector<char> total_, before_, prefix_, packed_;
};

}  // namespace

std::unique_ptr<Operation> make_iscan_across_nodes(CommContext& ctx, const Config& config, bool exclusive,
                                                   const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                                                   MPI_Op op, const ElementLayout& layout) {
  return std::make_unique<IscanAcrossNodes>(ctx, config, exclusive, sendbuf, recvbuf, count, type, op, layout);
}

}  // namespace mcorecoll
