#include "reduction/ireduce_shm.hpp"

#include <optional>

#include "reduction/reduce_shm.hpp"

namespace mcorecoll {
namespace {

class Ireduce final : public Operation {
 public:
  Ireduce(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
          MPI_Op op, int root, const ElementLayout& layout, int algorithm)
      : Operation(ctx), config_(config), sendbuf_(sendbuf), recvbuf_(recvbuf), count_(count), type_(type), op_(op),
        root_(root), algorithm_(algorithm), layout_(layout) {}

  // Every activation (each MPI_Start) has rounds of its own: new sequence numbers, the lease
  // asked for again.
  void begin() override {
    rc = MPI_SUCCESS;
    rounds_.emplace(ctx_, config_, sendbuf_, recvbuf_, count_, type_, op_, root_, layout_, algorithm_);
  }

  bool step(bool may_call_mpi) override {
    if (!rounds_->advance(may_call_mpi, &waiting_on)) return false;
    rc = rounds_->rc;
    return true;
  }

 private:
  const Config& config_;
  const void* sendbuf_;
  void* recvbuf_;
  int count_;
  MPI_Datatype type_;
  MPI_Op op_;
  int root_, algorithm_;
  ElementLayout layout_;
  std::optional<ReduceRounds> rounds_;
};

}  // namespace

std::unique_ptr<Operation> make_ireduce(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf,
                                        int count, MPI_Datatype type, MPI_Op op, int root,
                                        const ElementLayout& layout, int algorithm) {
  return std::make_unique<Ireduce>(ctx, config, sendbuf, recvbuf, count, type, op, root, layout, algorithm);
}

}  // namespace mcorecoll
