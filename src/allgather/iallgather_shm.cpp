#include "allgather/iallgather_shm.hpp"

#include <optional>

#include "allgather/allgather_bytes.hpp"
#include "allgather/allgather_shm.hpp"

namespace mcorecoll {
namespace {

class Iallgather final : public Operation {
 public:
  Iallgather(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
             void* recvbuf, int recvcount, MPI_Datatype recvtype, std::uint64_t block, int algorithm)
      : Operation(ctx), config_(config), block_(block), algorithm_(algorithm),
        sides_(ctx, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, block) {
    sides_.hold_types();
  }

  void begin() override {
    rc = MPI_SUCCESS;
    if (block_ == 0) return;
    sides_.pack();
    rounds_.emplace(ctx_, config_, sides_.out(), sides_.recv.data(), block_, algorithm_);
  }

  bool step(bool) override { return block_ == 0 || rounds_->advance(&waiting_on); }

  void finish() override {
    if (block_ > 0) sides_.recv.unpack();
  }

 private:
  const Config& config_;
  std::uint64_t block_;
  int algorithm_;
  AllgatherBytes sides_;
  std::optional<AllgatherRounds> rounds_;
};

}  // namespace

std::unique_ptr<Operation> make_iallgather(CommContext& ctx, const Config& config, const void* sendbuf,
                                           int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                           MPI_Datatype recvtype, std::uint64_t block, int algorithm) {
  return std::make_unique<Iallgather>(ctx, config, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                      block, algorithm);
}

}  // namespace mcorecoll
