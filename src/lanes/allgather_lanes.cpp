#include "lanes/allgather_lanes.hpp"

#include <cstring>

#include "allgather/allgather_bytes.hpp"
#include "common/scratch_room.hpp"
#include "lanes/lanes.hpp"
#include "node/comm_context.hpp"
#include "node/transfer_count.hpp"
#include "progress/rounds_operation.hpp"

namespace mcorecoll {
namespace {

// Whether node `i`'s ranks are consecutive in the communicator, in node-rank order.
bool consecutive(const CommContext& ctx, int i) {
  const std::vector<int>& members = ctx.node_members[static_cast<std::size_t>(i)];
  for (std::size_t j = 1; j < members.size(); ++j)
    if (members[j] != members[0] + static_cast<int>(j)) return false;
  return true;
}

}  // namespace

AllgatherLanesRounds::AllgatherLanesRounds(CommContext& ctx, const Config& config, const char* out, char* all,
                                           std::uint64_t block, AllgatherLanesRooms& rooms, bool blocking)
    : AcrossNodesPhases(true), ctx_(ctx), config_(config), out_(out), all_(all), block_(block), blocking_(blocking),
      lanes_(blocking ? lanes_of(ctx) : ctx.lanes_comm), rooms_(rooms) {
  scratch_room(rooms.lane, block * static_cast<std::uint64_t>(ctx.node_count));
}

std::uint64_t AllgatherLanesRounds::moves() const {
  return gathered_ + (gather_ ? gather_->moves() : 0) + static_cast<std::uint64_t>(node_) + phases_moved();
}

// 1. Node rank r's block of every node, in node order (its rank on the lane: its node's index).
bool AllgatherLanesRounds::leaders_step() {
  char* lane = rooms_.lane.data();
  const int block = static_cast<int>(block_);
  if (lane_.first()) count_network(MCORECOLL_NETWORK_LANE, -1, block_);
  return lane_.step(
      blocking_, &rc, [&] { return PMPI_Allgather(out_, block, MPI_BYTE, lane, block, MPI_BYTE, lanes_); },
      [&](MPI_Request* r) { return PMPI_Iallgather(out_, block, MPI_BYTE, lane, block, MPI_BYTE, lanes_, r); });
}

// 2. Each node's blocks in turn, one from each lane of this node, into their ranks' places
// (after an error on the lane too: the node's ranks wait for each other's blocks).
bool AllgatherLanesRounds::hand_out_step(bool, int* waiting_on) {
  const int n = ctx_.node_size;
  for (; node_ < ctx_.node_count; ++node_) {
    const std::vector<int>& members = ctx_.node_members[static_cast<std::size_t>(node_)];
    const bool straight = consecutive(ctx_, node_);
    if (!gather_) {
      const char* own = rooms_.lane.data() + block_ * static_cast<std::uint64_t>(node_);
      char* into = straight ? all_ + block_ * static_cast<std::uint64_t>(members[0])
                            : scratch_room(rooms_.node, block_ * static_cast<std::uint64_t>(n));
      gather_.emplace(ctx_, config_, own, into, block_);
    }
    if (!gather_->advance(waiting_on)) return false;
    gathered_ += gather_->moves() + 1;
    gather_.reset();
    if (!straight)
      for (int j = 0; j < n; ++j)
        std::memcpy(all_ + block_ * static_cast<std::uint64_t>(members[static_cast<std::size_t>(j)]),
                    rooms_.node.data() + block_ * static_cast<std::uint64_t>(j), block_);
  }
  return true;
}

int allgather_lanes(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                    void* recvbuf, int recvcount, MPI_Datatype recvtype, std::uint64_t block) {
  if (block == 0) return MPI_SUCCESS;
  AllgatherBytes bytes(ctx, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, block);
  bytes.pack();
  AllgatherLanesRounds rounds(ctx, config, bytes.out(), bytes.recv.data(), block, ctx.kept.get<AllgatherLanesRooms>(),
                              true);
  const int rc = rounds.run_to_end(ctx, config);
  bytes.recv.unpack();
  return rc;
}

namespace {

class IallgatherLanes final : public RoundsOperation<AllgatherLanesRounds> {
 public:
  IallgatherLanes(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype, std::uint64_t block)
      : RoundsOperation(ctx), config_(config), block_(block),
        sides_(ctx, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, block) {
    sides_.hold_types();
  }

  void begin() override {
    rc = MPI_SUCCESS;
    if (block_ == 0) return;
    sides_.pack();
    rounds_.emplace(ctx_, config_, sides_.out(), sides_.recv.data(), block_, rooms_, false);
  }
  bool step(bool may_call_mpi) override { return block_ == 0 || RoundsOperation::step(may_call_mpi); }
  void finish() override {
    if (block_ > 0) sides_.recv.unpack();
  }

 private:
  const Config& config_;
  std::uint64_t block_;
  AllgatherBytes sides_;
  AllgatherLanesRooms rooms_;
};

}  // namespace

std::unique_ptr<Operation> make_iallgather_lanes(CommContext& ctx, const Config& config, const void* sendbuf,
                                                 int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                                 MPI_Datatype recvtype, std::uint64_t block) {
  return std::make_unique<IallgatherLanes>(ctx, config, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                           block);
}

}  // namespace mcorecoll
