#include "reduction/iscan_shm.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "common/block_bytes.hpp"
#include "exchange/exchange_operation.hpp"
#include "node/comm_context.hpp"
#include "progress/rounds_operation.hpp"
#include "reduction/scan_lines.hpp"
#include "reduction/scan_shm.hpp"

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

// A contribution of one line: the lines' tree (scan_lines.hpp), new rounds for each activation.
class IscanLines final : public RoundsOperation<ScanLineRounds> {
 public:
  IscanLines(CommContext& ctx, bool exclusive, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
             MPI_Op op, const ElementLayout& layout)
      : RoundsOperation(ctx), exclusive_(exclusive), input_(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf),
        recv_(recvbuf), count_(count), type_(type), op_(op), layout_(layout) {}
  void begin() override {
    rc = MPI_SUCCESS;
    rounds_.emplace(ctx_, exclusive_, input_, recv_, count_, type_, op_, layout_);
  }

 private:
  bool exclusive_;
  const void* input_;
  void* recv_;
  int count_;
  MPI_Datatype type_;
  MPI_Op op_;
  ElementLayout layout_;
};

}  // namespace

std::unique_ptr<Operation> make_iscan(CommContext& ctx, const Config& config, bool exclusive, const void* sendbuf,
                                      void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                                      const ElementLayout& layout) {
  if (scan_on_lines(layout, count))
    return std::make_unique<IscanLines>(ctx, exclusive, sendbuf, recvbuf, count, type, op, layout);
  return std::make_unique<Iscan>(ctx, config, exclusive, sendbuf, recvbuf, count, type, op, layout);
}

}  // namespace mcorecoll
