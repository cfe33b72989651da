#include "exchange/node_only_operations.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "allgather/allgatherv_shm.hpp"
#include "alltoall/alltoallv_shm.hpp"
#include "common/block_bytes.hpp"
#include "gather/gather_shm.hpp"
#include "reduction/scan_shm.hpp"
#include "scatter/scatter_shm.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {
namespace {

// What every operation here shares: its rounds, made at begin(), and their steps.
class ExchangeOperation : public Operation {
 public:
  ExchangeOperation(CommContext& ctx, const Config& config) : Operation(ctx), config_(config) {}
  bool step(bool) override { return !rounds_ || rounds_->advance(&waiting_on); }

 protected:
  const Config& config_;
  std::optional<ExchangeRounds> rounds_;
};

// The root's blocks as BlockBytes (RootBlocks' two shapes).
void emplace_root_blocks(std::optional<BlockBytes>& blocks, void* buffer, int n, RootBlocks shape, MPI_Datatype type) {
  if (shape.counts) blocks.emplace(buffer, n, shape.counts, shape.displs, type);
  else blocks.emplace(buffer, n, shape.count, type);
  blocks->hold_types();
}

class Igather final : public ExchangeOperation {
 public:
  Igather(CommContext& ctx, const Config& config, int root, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
          std::uint64_t own, void* recvbuf, RootBlocks recv, MPI_Datatype recvtype, std::uint64_t max_block)
      : ExchangeOperation(ctx, config), root_(root), own_(own), max_block_(max_block) {
    const bool is_root = ctx.node_rank == root;
    if (!is_root || sendbuf != MPI_IN_PLACE) {
      send_.emplace(const_cast<void*>(sendbuf), sendcount, sendtype, own);
      send_->hold_type();
    }
    if (is_root) emplace_root_blocks(recv_, recvbuf, ctx.size, recv, recvtype);
  }
  void begin() override {
    rc = MPI_SUCCESS;
    rounds_.reset();
    if (max_block_ == 0) return;
    if (send_) send_->pack();
    rounds_.emplace(gather_rounds(ctx_, config_, root_, max_block_, send_ ? send_->data() : nullptr, own_,
                                  recv_ ? &*recv_ : nullptr));
  }
  void finish() override {
    if (!recv_ || max_block_ == 0) return;
    if (send_) copy_bytes(recv_->data(root_), send_->data(), std::min(own_, recv_->size(root_)));
    recv_->unpack_all_but(send_ ? -1 : root_);
  }

 private:
  int root_;
  std::uint64_t own_, max_block_;
  std::optional<MessageBytes> send_;
  std::optional<BlockBytes> recv_;
};

class Iscatter final : public ExchangeOperation {
 public:
  Iscatter(CommContext& ctx, const Config& config, int root, const void* sendbuf, RootBlocks send,
           MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, std::uint64_t own,
           std::uint64_t max_block)
      : ExchangeOperation(ctx, config), root_(root), own_(own), max_block_(max_block) {
    if (ctx.node_rank == root) emplace_root_blocks(send_, const_cast<void*>(sendbuf), ctx.size, send, sendtype);
    if (recvbuf != MPI_IN_PLACE) {
      recv_.emplace(recvbuf, recvcount, recvtype, own);
      recv_->hold_type();
    }
  }
  void begin() override {
    rc = MPI_SUCCESS;
    rounds_.reset();
    if (max_block_ == 0) return;
    if (send_) send_->pack();
    rounds_.emplace(scatter_rounds(ctx_, config_, root_, max_block_, recv_ ? recv_->data() : nullptr,
                                   recv_ ? own_ : 0, send_ ? &*send_ : nullptr));
  }
  void finish() override {
    if (!recv_ || max_block_ == 0) return;
    if (send_) copy_bytes(recv_->data(), send_->data(root_), std::min(own_, send_->size(root_)));
    recv_->unpack();
  }

 private:
  int root_;
  std::uint64_t own_, max_block_;
  std::optional<BlockBytes> send_;
  std::optional<MessageBytes> recv_;
};

class Ialltoallv final : public ExchangeOperation {
 public:
  Ialltoallv(CommContext& ctx, const Config& config, const void* sendbuf, const int* sendcounts, const int* sdispls,
             MPI_Datatype sendtype, void* recvbuf, const int* recvcounts, const int* rdispls, MPI_Datatype recvtype,
             std::uint64_t max_block)
      : ExchangeOperation(ctx, config), recv_(recvbuf, ctx.size, recvcounts, rdispls, recvtype),
        max_block_(max_block) {
    recv_.hold_types();
    if (sendbuf != MPI_IN_PLACE) {
      send_.emplace(const_cast<void*>(sendbuf), ctx.size, sendcounts, sdispls, sendtype);
      send_->hold_types();
    }
  }
  void begin() override {
    rc = MPI_SUCCESS;
    rounds_.reset();
    if (send_) {
      send_->pack();
    } else {
      // In place: what is sent is the receive buffer as it is now, which the call overwrites.
      recv_.pack();
      before_.resize(static_cast<std::size_t>(recv_.blocks()));
      for (int i = 0; i < recv_.blocks(); ++i)
        before_[static_cast<std::size_t>(i)].assign(recv_.data(i), recv_.data(i) + recv_.size(i));
    }
    if (max_block_ > 0) rounds_.emplace(alltoallv_rounds(ctx_, config_, max_block_, this, &recv_));
  }
  void finish() override {
    const int me = ctx_.node_rank;
    copy_bytes(recv_.data(me), data(me), std::min(size(me), recv_.size(me)));
    recv_.unpack_all_but(-1);
  }
  // What is sent to rank d (alltoallv_rounds' Send).
  char* data(int d) { return send_ ? send_->data(d) : before_[static_cast<std::size_t>(d)].data(); }
  std::uint64_t size(int d) const { return send_ ? send_->size(d) : before_[static_cast<std::size_t>(d)].size(); }

 private:
  BlockBytes recv_;
  std::optional<BlockBytes> send_;
  std::vector<std::vector<char>> before_;
  std::uint64_t max_block_;
};

class Iallgatherv final : public ExchangeOperation {
 public:
  Iallgatherv(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
              std::uint64_t own, void* recvbuf, const int* recvcounts, const int* displs, MPI_Datatype recvtype)
      : ExchangeOperation(ctx, config), recv_(recvbuf, ctx.size, recvcounts, displs, recvtype) {
    recv_.hold_types();
    if (sendbuf != MPI_IN_PLACE) {
      send_.emplace(const_cast<void*>(sendbuf), sendcount, sendtype, own);
      send_->hold_type();
    }
  }
  void begin() override {
    rc = MPI_SUCCESS;
    rounds_.reset();
    const int me = ctx_.node_rank;
    if (send_) send_->pack();
    else recv_.pack(me);
    own_ = send_ ? send_->data() : recv_.data(me);
    rounds_.emplace(allgatherv_rounds(ctx_, config_, own_, recv_));
  }
  void finish() override {
    const int me = ctx_.node_rank;
    if (send_) copy_bytes(recv_.data(me), send_->data(), recv_.size(me));
    recv_.unpack_all_but(send_ ? -1 : me);
  }

 private:
  BlockBytes recv_;
  std::optional<MessageBytes> send_;
  const char* own_ = nullptr;
};

class Iscan final : public ExchangeOperation {
 public:
  Iscan(CommContext& ctx, const Config& config, bool exclusive, const void* sendbuf, void* recvbuf, int count,
        MPI_Datatype type, MPI_Op op, const ElementLayout& layout)
      : ExchangeOperation(ctx, config), exclusive_(exclusive),
        input_(static_cast<const char*>(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf)),
        recv_(static_cast<char*>(recvbuf)), count_(count), type_(type), op_(op), layout_(layout),
        image_(layout.image_bytes(static_cast<std::size_t>(count))) {}
  void begin() override {
    rc = MPI_SUCCESS;
    rounds_.reset();
    if (count_ == 0) return;
    const int me = ctx_.node_rank;
    // Operands 0..me-1, then this rank's own image (taken now: with MPI_IN_PLACE the receive
    // buffer is the input), then the result.
    operands_.resize(image_ * (static_cast<std::size_t>(me) + 2));
    char* own = operands_.data() + static_cast<std::size_t>(me) * image_;
    copy_bytes(own, input_, image_);
    rounds_.emplace(scan_rounds(ctx_, config_, own, operands_.data(), image_));
  }
  void finish() override {
    if (count_ == 0) return;
    const std::size_t me = static_cast<std::size_t>(ctx_.node_rank);
    const char* own = operands_.data() + me * image_;
    const int folded = fold_prefix(ctx_, exclusive_, own, operands_.data(), operands_.data() + (me + 1) * image_,
                                   image_, count_, type_, op_, layout_, recv_, packed_);
    if (rc == MPI_SUCCESS) rc = folded;
  }

 private:
  bool exclusive_;
  const char* input_;
  char* recv_;
  int count_;
  MPI_Datatype type_;
  MPI_Op op_;
  ElementLayout layout_;
  std::size_t image_;
  std::vector<char> operands_, packed_;
};

}  // namespace

std::unique_ptr<Operation> make_igather(CommContext& ctx, const Config& config, int root, const void* sendbuf,
                                        int sendcount, MPI_Datatype sendtype, std::uint64_t own, void* recvbuf,
                                        RootBlocks recv, MPI_Datatype recvtype, std::uint64_t max_block) {
  return std::make_unique<Igather>(ctx, config, root, sendbuf, sendcount, sendtype, own, recvbuf, recv, recvtype,
                                   max_block);
}

std::unique_ptr<Operation> make_iscatter(CommContext& ctx, const Config& config, int root, const void* sendbuf,
                                         RootBlocks send, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                         MPI_Datatype recvtype, std::uint64_t own, std::uint64_t max_block) {
  return std::make_unique<Iscatter>(ctx, config, root, sendbuf, send, sendtype, recvbuf, recvcount, recvtype, own,
                                    max_block);
}

std::unique_ptr<Operation> make_ialltoallv(CommContext& ctx, const Config& config, const void* sendbuf,
                                           const int* sendcounts, const int* sdispls, MPI_Datatype sendtype,
                                           void* recvbuf, const int* recvcounts, const int* rdispls,
                                           MPI_Datatype recvtype, std::uint64_t max_block) {
  return std::make_unique<Ialltoallv>(ctx, config, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                      rdispls, recvtype, max_block);
}

std::unique_ptr<Operation> make_iallgatherv(CommContext& ctx, const Config& config, const void* sendbuf,
                                            int sendcount, MPI_Datatype sendtype, std::uint64_t own, void* recvbuf,
                                            const int* recvcounts, const int* displs, MPI_Datatype recvtype) {
  return std::make_unique<Iallgatherv>(ctx, config, sendbuf, sendcount, sendtype, own, recvbuf, recvcounts, displs,
                                       recvtype);
}

std::unique_ptr<Operation> make_iscan(CommContext& ctx, const Config& config, bool exclusive, const void* sendbuf,
                                      void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                                      const ElementLayout& layout) {
  return std::make_unique<Iscan>(ctx, config, exclusive, sendbuf, recvbuf, count, type, op, layout);
}

}  // namespace mcorecoll
