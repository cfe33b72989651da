#include "alltoall/ialltoall_shm.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include "alltoall/alltoall_rounds.hpp"
#include "alltoall/alltoall_shm.hpp"
#include "alltoall/alltoall_single_copy.hpp"
#include "common/message_bytes.hpp"
#include "decisions/config.hpp"
#include "node/node_reads.hpp"
#include "node/node_shm.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {
namespace {

class Ialltoall final : public Operation {
 public:
  Ialltoall(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
            void* recvbuf, int recvcount, MPI_Datatype recvtype, std::uint64_t block, bool single_copy)
      : Operation(ctx), config_(config), block_(block), single_copy_(single_copy),
        sides_(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, ctx.size,
               block * static_cast<std::uint64_t>(ctx.size)) {
    sides_.recv.hold_type();
    sides_.send.hold_type();
  }

  void begin() override {
    rc = MPI_SUCCESS;
    begun_ = read_all_ = false;
    offset_ = 0;
    stage_ = Stage::stage;
    round_.reset();
    reads_.reset();
    exchange_ = MPI_REQUEST_NULL;
    peer_ = 0;
    if (block_ == 0) return;
    const std::uint64_t total = block_ * static_cast<std::uint64_t>(ctx_.size);
    MessageBytes &recv = sides_.recv, &send = sides_.send;
    send.pack();
    if (single_copy_) {
      out_ = send.data();
      if (sides_.in_place && send.contiguous()) {  // peers must read the blocks as they were
        send_copy_.assign(out_, out_ + total);
        out_ = send_copy_.data();
      }
    } else {
      // In place, the send data is the receive buffer, read tile by tile before it is overwritten.
      out_ = sides_.in_place ? recv.data() : send.data();
      if (sides_.in_place && !recv.contiguous()) std::memcpy(recv.data(), send.data(), total);
    }
  }

  bool step(bool may_call_mpi) override {
    if (block_ == 0) return true;
    return single_copy_ ? single_copy_step() : staged_step(may_call_mpi);
  }

  void finish() override {
    if (block_ > 0) sides_.recv.unpack();
  }

 private:
  enum class Stage { stage, exchange, exchange_test, gather, inbox };

  // The staged rounds. Each case returns false where the blocking algorithm would wait.
  bool staged_step(bool may_call_mpi) {
    if (!begun_) {
      if (!try_staging_areas(ctx_, config_, block_, &staging_)) return wait_for_rank(ctx_.lease_waits_for);
      begun_ = true;
      tile_ = tile_bytes(staging_, ctx_.size);
    }
    NodeShm& shm = *ctx_.shm;
    const bool across_nodes = ctx_.node_count > 1;
    char* recv = sides_.recv.data();
    while (offset_ < block_) {
      switch (stage_) {
        case Stage::stage: {
          if (!round_) round_ = next_round(ctx_, staging_, std::min(tile_, block_ - offset_));
          const int busy = rank_using_half(ctx_, shm, *round_);
          if (busy >= 0) return wait_for_rank(busy);
          stage_round(ctx_, shm, *round_, out_, block_, offset_);
          reads_.emplace(ctx_.node_rank, ctx_.node_size, round_->seq, config_.alltoall_readers);
          stage_ = across_nodes && ctx_.node_rank == 0 ? Stage::exchange : Stage::gather;
          break;
        }
        case Stage::exchange:
          for (int r = 1; r < ctx_.node_size; ++r)
            if (!reached(shm.post(r).load(std::memory_order_acquire), round_->seq)) return wait_for_rank(r);
          if (!may_call_mpi) return false;
          pack_exchange(ctx_, *round_, counts_, displs_);
          if (const int posted = PMPI_Ialltoallv(ctx_.exchange_buffer.data(), counts_.data(), displs_.data(),
                                                 MPI_BYTE, shm.inbox(round_->h), counts_.data(), displs_.data(),
                                                 MPI_BYTE, ctx_.leaders_comm, &exchange_);
              posted != MPI_SUCCESS) {
            rc = posted;
            exchange_ = MPI_REQUEST_NULL;
          }
          stage_ = Stage::exchange_test;
          break;
        case Stage::exchange_test:
          // After an error the node is still told (the leader reports it): no rank waits for ever.
          if (exchange_ != MPI_REQUEST_NULL && (!may_call_mpi || !test_request(exchange_))) return false;
          shm.delivered().store(round_->seq, std::memory_order_release);
          stage_ = Stage::gather;
          break;
        case Stage::gather:
          if (!reads_->advance(shm, [&](int r) { copy_from_staging(ctx_, *round_, r, recv, block_, offset_); }))
            return wait_for_rank(reads_->next());
          stage_ = Stage::inbox;
          break;
        case Stage::inbox:
          if (across_nodes) {
            if (!reached(shm.delivered().load(std::memory_order_acquire), round_->seq)) return wait_for_rank(0);
            copy_from_inbox(ctx_, shm, *round_, recv, block_, offset_);
          }
          shm.done(ctx_.node_rank).store(round_->seq, std::memory_order_release);
          ctx_.last_stage_seq[round_->h] = round_->seq;
          offset_ += round_->len;
          round_.reset();
          stage_ = Stage::stage;
          break;
      }
    }
    return true;
  }

  // Single copy: post this rank's send data, pull every peer's block for this rank as they
  // post theirs, then wait (step by step) until every peer is done reading this rank's data.
  bool single_copy_step() {
    NodeShm& shm = *ctx_.shm;
    if (!begun_) {
      begun_ = true;
      seq_ = ++ctx_.seq;
      post_send_data(ctx_, out_, seq_);
      reads_.emplace(ctx_.node_rank, ctx_.node_size, seq_, config_.alltoall_readers);
    }
    if (!read_all_) {
      char* recv = sides_.recv.data();
      const bool all = reads_->advance(shm, [&](int r) { pull_block(ctx_, r, out_, recv, block_); });
      if (!all) return wait_for_rank(reads_->next());
      read_all_ = true;
      shm.done(ctx_.node_rank).store(seq_, std::memory_order_release);
    }
    for (; peer_ < ctx_.node_size; ++peer_)
      if (peer_ != ctx_.node_rank && !reached(shm.done(peer_).load(std::memory_order_acquire), seq_))
        return wait_for_rank(peer_);
    return true;
  }

  const Config& config_;
  std::uint64_t block_;
  bool single_copy_;
  AlltoallBytes sides_;
  const char* out_ = nullptr;    // the send data as peers and the staging read it
  std::vector<char> send_copy_;  // single copy in place: the blocks as they were
  bool begun_ = false;
  // Staged rounds.
  StagingAreas staging_{};
  std::uint64_t tile_ = 0, offset_ = 0;
  Stage stage_ = Stage::stage;
  std::optional<Round> round_;
  std::optional<NodeReads> reads_;
  std::vector<int> counts_, displs_;
  MPI_Request exchange_ = MPI_REQUEST_NULL;
  // Single copy.
  std::uint64_t seq_ = 0;
  bool read_all_ = false;
  int peer_ = 0;
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
