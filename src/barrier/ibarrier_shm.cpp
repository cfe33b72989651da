#include "barrier/ibarrier_shm.hpp"

#include <optional>

#include "barrier/barrier_shm.hpp"

namespace mcorecoll {
namespace {

class Ibarrier final : public Operation {
 public:
  Ibarrier(CommContext& ctx, const Config& config) : Operation(ctx), config_(config) {}

  void begin() override {
    rc = MPI_SUCCESS;
    rounds_.emplace(ctx_, config_, false, false);
  }

  bool step(bool may_call_mpi) override {
    if (!rounds_->advance(may_call_mpi, &waiting_on)) return false;
    rc = rounds_->rc;
    return true;
  }

 private:
  const Config& config_;
  std::optional<BarrierRounds> rounds_;
};

}  // namespace

std::unique_ptr<Operation> make_ibarrier(CommContext& ctx, const Config& config) {
  return std::make_unique<Ibarrier>(ctx, config);
}

}  // namespace mcorecoll
