#include "reduction/ireduce_across_nodes.hpp"

#include <vector>

#include "progress/rounds_operation.hpp"
#include "reduction/reduce_across_nodes.hpp"

namespace mcorecoll {
namespace {

class IreduceAcrossNodes final : public RoundsOperation<ReduceAcrossNodesRounds> {
 public:
  IreduceAcrossNodes(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf, int count,
                     MPI_Datatype type, MPI_Op op, int root, const ElementLayout& layout, std::uint64_t bytes)
      : RoundsOperation(ctx), config_(config), sendbuf_(sendbuf), recvbuf_(recvbuf), count_(count), type_(type), op_(op),
        root_(root), layout_(layout), bytes_(bytes) {}

  void begin() override {
    rc = MPI_SUCCESS;
    rounds_.emplace(ctx_, config_, sendbuf_, recvbuf_, count_, type_, op_, root_, layout_, bytes_,
                    ReduceRooms{partial_, gathered_, folded_, packed_}, false);
  }

 private:
  const Config& config_;
  const void* sendbuf_;
  void* recvbuf_;
  int count_;
  MPI_Datatype type_;
  MPI_Op op_;
  int root_;
  ElementLayout layout_;
  std::uint64_t bytes_;
  std::vector<char> partial_, gathered_, folded_, packed_;
};

}  // namespace

std::unique_ptr<Operation> make_ireduce_across_nodes(CommContext& ctx, const Config& config, const void* sendbuf,
                                                     void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                                                     int root, const ElementLayout& layout, std::uint64_t bytes) {
  return std::make_unique<IreduceAcrossNodes>(ctx, config, sendbuf, recvbuf, count, type, op, root, layout, bytes);
}

}  // namespace mcorecoll
