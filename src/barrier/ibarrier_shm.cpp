#include "barrier/ibarrier_shm.hpp"

#include "barrier/barrier_shm.hpp"
#include "progress/rounds_operation.hpp"

namespace mcorecoll {
namespace {

class Ibarrier final : public RoundsOperation<BarrierRounds> {
 public:
  Ibarrier(CommContext& ctx, const Config& config, int algorithm)
      : RoundsOperation(ctx), config_(config), algorithm_(algorithm) {}

  void begin() override {
    rc = MPI_SUCCESS;
    rounds_.emplace(ctx_, config_, false, nullptr, algorithm_);
  }

 private:
  const Config& config_;
  const int algorithm_;
};

}  // namespace

std::unique_ptr<Operation> make_ibarrier(CommContext& ctx, const Config& config, int algorithm) {
  return std::make_unique<Ibarrier>(ctx, config, algorithm);
}

}  // namespace mcorecoll
