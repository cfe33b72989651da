#include "bcast/ibcast_shm.hpp"

#include "bcast/bcast_shm.hpp"
#include "common/message_bytes.hpp"
#include "progress/rounds_operation.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {

class Ibcast final : public RoundsOperation<BcastRounds> {
 public:
  Ibcast(CommContext& ctx, const Config& config, void* buffer, int count, MPI_Datatype datatype,
         int root, std::uint64_t bytes, bool single_copy)
      : RoundsOperation(ctx), config_(config), msg_(buffer, count, datatype, bytes), root_(root),
        single_copy_(single_copy) {
    msg_.hold_type();
  }

  void begin() override {
    rc = MPI_SUCCESS;
    if (ctx_.rank == root_ && msg_.size() > 0) msg_.pack();
    rounds_.emplace(ctx_, config_, msg_.data(), msg_.size(), root_, single_copy_, false);
  }

  void finish() override {
    if (ctx_.rank != root_ && msg_.size() > 0) msg_.unpack();
  }

 private:
  const Config& config_;
  MessageBytes msg_;
  int root_;
  bool single_copy_;
};

}  // namespace

std::unique_ptr<Operation> make_ibcast(CommContext& ctx, const Config& config, void* buffer, int count,
                                       MPI_Datatype datatype, int root, std::uint64_t bytes,
                                       bool single_copy) {
  return std::make_unique<Ibcast>(ctx, config, buffer, count, datatype, root, bytes, single_copy);
}

}  // namespace mcorecoll
