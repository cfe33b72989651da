#include "alltoall/ialltoall_shm.hpp"

#include <vector>

#include "alltoall/alltoall_shm.hpp"
#include "progress/rounds_operation.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {

class Ialltoall final : public RoundsOperation<AlltoallRounds> {
 public:
  Ialltoall(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
            void* recvbuf, int recvcount, MPI_Datatype recvtype, std::uint64_t block, bool single_copy)
      : RoundsOperation(ctx), config_(config), block_(block), single_copy_(single_copy),
        sides_(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, ctx.size,
               block * static_cast<std::uint64_t>(ctx.size)) {
    sides_.recv.hold_type();
    sides_.send.hold_type();
  }

  void begin() override {
    rc = MPI_SUCCESS;
    if (block_ > 0) sides_.send.pack();
    const char* out = block_ > 0 ? alltoall_out(sides_, single_copy_, send_copy_) : nullptr;
    rounds_.emplace(ctx_, config_, out, sides_.recv.data(), block_, single_copy_, nullptr);
  }

  void finish() override {
    if (block_ > 0) sides_.recv.unpack();
  }

 private:
  const Config& config_;
  std::uint64_t block_;
  bool single_copy_;
  AlltoallBytes sides_;
  std::vector<char> send_copy_;  // single copy in place: the blocks as they were
};

}  // namespace

std::unique_ptr<Operation> make_ialltoall(CommContext& ctx, const Config& config, const void* sendbuf,
                                          int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                          int recvcount, MPI_Datatype recvtype, std::uint64_t block,
                                          bool single_copy) {
  return std::make_unique<Ialltoall>(ctx, config, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                     block, single_copy);
}

}  // namespace mcorecoll
