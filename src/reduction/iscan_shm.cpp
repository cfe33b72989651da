#include "reduction/iscan_shm.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "common/block_bytes.hpp"
#include "exchange/exchange_operation.hpp"
#include "reduction/scan_shm.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {

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

std::unique_ptr<Operation> make_iscan(CommContext& ctx, const Config& config, bool exclusive, const void* sendbuf,
                                      void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                                      const ElementLayout& layout) {
  return std::make_unique<Iscan>(ctx, config, exclusive, sendbuf, recvbuf, count, type, op, layout);
}

}  // namespace mcorecoll
