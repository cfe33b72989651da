#include "exchange/node_only_operations.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "common/block_bytes.hpp"
#include "exchange/staged_exchange.hpp"
#include "reduction/fold.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {
namespace {

// What every operation here shares: its rounds, made at begin(), and their steps.
class ExchangeOperation : public Operation {
 public:
  ExchangeOperation(CommContext& ctx, const Config& config) : Operation(ctx), config_(config) {}
  bool step(bool) override { return !rounds_ || rounds_->advance(&waiting_on); }

 protected:
  void start_rounds(ExchangeShape shape, ExchangeRounds::Give give, ExchangeRounds::Take take) {
    rounds_.emplace(ctx_, config_, std::move(shape), std::move(give), std::move(take));
  }
  std::vector<int> others() const {
    std::vector<int> v;
    for (int r = 0; r < ctx_.node_size; ++r)
      if (r != ctx_.node_rank) v.push_back(r);
    return v;
  }
  const Config& config_;
  std::optional<ExchangeRounds> rounds_;
};

class Igather final : public ExchangeOperation {
 public:
  Igather(CommContext& ctx, const Config& config, int root, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
          void* recvbuf, int recvcount, MPI_Datatype recvtype, std::uint64_t block)
      : ExchangeOperation(ctx, config), root_(root), block_(block) {
    const bool is_root = ctx.node_rank == root;
    if (!is_root || sendbuf != MPI_IN_PLACE) {
      send_.emplace(const_cast<void*>(sendbuf), sendcount, sendtype, block);
      send_->hold_type();
    }
    if (is_root) {
      recv_.emplace(recvbuf, ctx.size, recvcount, recvtype);
      recv_->hold_types();
    }
  }
  void begin() override {
    rc = MPI_SUCCESS;
    rounds_.reset();
    if (block_ == 0) return;
    if (send_) send_->pack();
    ExchangeShape shape;
    shape.max_block = block_;
    shape.gives = !recv_;
    if (recv_) shape.sources = others();
    start_rounds(
        std::move(shape),
        [this](char* tiles, std::uint64_t offset, std::uint64_t len) {
          copy_bytes(tiles, send_->data() + offset, clipped(block_, offset, len));
        },
        [this](int r, const char* tiles, std::uint64_t offset, std::uint64_t len) {
          copy_bytes(recv_->data(r) + offset, tiles, clipped(recv_->size(r), offset, len));
        });
  }
  void finish() override {
    if (!recv_ || block_ == 0) return;
    if (send_) copy_bytes(recv_->data(root_), send_->data(), std::min(block_, recv_->size(root_)));
    recv_->unpack_all_but(send_ ? -1 : root_);
  }

 private:
  int root_;
  std::uint64_t block_;
  std::optional<MessageBytes> send_;
  std::optional<BlockBytes> recv_;
};

class Iscatter final : public ExchangeOperation {
 public:
  Iscatter(CommContext& ctx, const Config& config, int root, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
           void* recvbuf, int recvcount, MPI_Datatype recvtype, std::uint64_t block)
      : ExchangeOperation(ctx, config), root_(root), block_(block) {
    if (ctx.node_rank == root) {
      send_.emplace(const_cast<void*>(sendbuf), ctx.size, sendcount, sendtype);
      send_->hold_types();
    }
    if (recvbuf != MPI_IN_PLACE) {
      recv_.emplace(recvbuf, recvcount, recvtype, block);
      recv_->hold_type();
    }
  }
  void begin() override {
    rc = MPI_SUCCESS;
    rounds_.reset();
    if (block_ == 0) return;
    if (send_) send_->pack();
    ExchangeShape shape;
    shape.per_destination = true;
    shape.max_block = block_;
    shape.gives = send_.has_value();
    if (!send_) shape.sources = {root_};
    const int me = ctx_.node_rank, n = ctx_.node_size;
    start_rounds(
        std::move(shape),
        [this, n](char* tiles, std::uint64_t offset, std::uint64_t len) {
          for (int d = 0; d < n; ++d)
            if (d != root_) copy_bytes(tiles + d * len, send_->data(d) + offset, clipped(send_->size(d), offset, len));
        },
        [this, me](int, const char* tiles, std::uint64_t offset, std::uint64_t len) {
          copy_bytes(recv_->data() + offset, tiles + me * len, clipped(block_, offset, len));
        });
  }
  void finish() override {
    if (!recv_ || block_ == 0) return;
    if (send_) copy_bytes(recv_->data(), send_->data(root_), std::min(block_, send_->size(root_)));
    recv_->unpack();
  }

 private:
  int root_;
  std::uint64_t block_;
  std::optional<BlockBytes> send_;
  std::optional<MessageBytes> recv_;
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
    ExchangeShape shape;
    shape.max_block = recv_.largest();
    shape.gives = true;
    shape.sources = others();
    start_rounds(
        std::move(shape),
        [this, me](char* tiles, std::uint64_t offset, std::uint64_t len) {
          copy_bytes(tiles, own_ + offset, clipped(recv_.size(me), offset, len));
        },
        [this](int r, const char* tiles, std::uint64_t offset, std::uint64_t len) {
          copy_bytes(recv_.data(r) + offset, tiles, clipped(recv_.size(r), offset, len));
        });
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
    copy_bytes(operands_.data() + static_cast<std::size_t>(me) * image_, input_, image_);
    ExchangeShape shape;
    shape.max_block = image_;
    shape.gives = me < ctx_.node_size - 1;
    for (int r = 0; r < me; ++r) shape.sources.push_back(r);
    start_rounds(
        std::move(shape),
        [this, me](char* tiles, std::uint64_t offset, std::uint64_t len) {
          copy_bytes(tiles, operands_.data() + static_cast<std::size_t>(me) * image_ + offset,
                     clipped(image_, offset, len));
        },
        [this](int r, const char* tiles, std::uint64_t offset, std::uint64_t len) {
          copy_bytes(operands_.data() + static_cast<std::size_t>(r) * image_ + offset, tiles, clipped(image_, offset, len));
        });
  }
  void finish() override {
    const int me = ctx_.node_rank, last = exclusive_ ? me - 1 : me;
    if (count_ == 0 || last < 0) return;
    // c0 op (c1 op (... op c_last)), as the blocking form folds.
    char* acc = operands_.data() + (static_cast<std::size_t>(me) + 1) * image_;
    copy_bytes(acc, operands_.data() + static_cast<std::size_t>(last) * image_, image_);
    for (int r = last - 1; r >= 0 && rc == MPI_SUCCESS; --r)
      rc = combine(operands_.data() + static_cast<std::size_t>(r) * image_, acc, count_, type_, op_);
    if (rc == MPI_SUCCESS) rc = deliver(acc, recv_, count_, layout_, type_, ctx_.comm, packed_);
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
                                        int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                        MPI_Datatype recvtype, std::uint64_t block) {
  return std::make_unique<Igather>(ctx, config, root, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                   block);
}

std::unique_ptr<Operation> make_iscatter(CommContext& ctx, const Config& config, int root, const void* sendbuf,
                                         int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                         MPI_Datatype recvtype, std::uint64_t block) {
  return std::make_unique<Iscatter>(ctx, config, root, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                    block);
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
