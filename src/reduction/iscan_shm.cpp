#include "reduction/iscan_shm.hpp"

#include <type_traits>

#include "progress/rounds_operation.hpp"
#include "reduction/scan_lines.hpp"
#include "reduction/scan_shm.hpp"

namespace mcorecoll {
namespace {

// The scan's rounds (`Rounds`: ScanLineRounds for one record line, else ScanRounds), new ones
// for each activation.
template <typename Rounds>
class Iscan final : public RoundsOperation<Rounds> {
 public:
  Iscan(CommContext& ctx, const Config& config, bool exclusive, const void* sendbuf, void* recvbuf, int count,
        MPI_Datatype type, MPI_Op op, const ElementLayout& layout)
      : RoundsOperation<Rounds>(ctx), config_(config), exclusive_(exclusive),
        input_(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf), recv_(recvbuf), count_(count), type_(type), op_(op),
        layout_(layout) {}
  void begin() override {
    this->rc = MPI_SUCCESS;
    if constexpr (std::is_same_v<Rounds, ScanLineRounds>)
      this->rounds_.emplace(this->ctx_, exclusive_, input_, recv_, count_, type_, op_, layout_);
    else
      this->rounds_.emplace(this->ctx_, config_, exclusive_, input_, recv_, count_, type_, op_, layout_);
  }
  bool step(bool may_call_mpi) override {
    if (!RoundsOperation<Rounds>::step(may_call_mpi)) return false;
    // The staging areas too small for one element: never for the named types these forms take.
    if constexpr (std::is_same_v<Rounds, ScanRounds>)
      if (this->rounds_->too_small()) this->rc = MPI_ERR_INTERN;
    return true;
  }

 private:
  const Config& config_;
  bool exclusive_;
  const void* input_;
  void* recv_;
  int count_;
  MPI_Datatype type_;
  MPI_Op op_;
  ElementLayout layout_;
};

}  // namespace

std::unique_ptr<Operation> make_iscan(CommContext& ctx, const Config& config, bool exclusive, const void* sendbuf,
                                      void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                                      const ElementLayout& layout, int algorithm) {
  if (scan_on_lines(layout, count, ctx.node_size, config, algorithm))
    return std::make_unique<Iscan<ScanLineRounds>>(ctx, config, exclusive, sendbuf, recvbuf, count, type, op, layout);
  return std::make_unique<Iscan<ScanRounds>>(ctx, config, exclusive, sendbuf, recvbuf, count, type, op, layout);
}

}  // namespace mcorecoll
