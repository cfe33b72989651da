// The one adapter between an algorithm written as resumable rounds (the barrier, the bcast, the
// alltoall, the allgather, the scans, the reductions, the compositions and the lanes across
// nodes: an `advance(may_call_mpi, &waiting_on)` that is true once this rank's part is over, and
// its `rc`) and the progress engine: a family's operation makes the activation's rounds at
// begin() (packing first), every step advances them, and the request reports their error.
// Where an operation only keeps its call's arguments for that, made_rounds() is the whole of it.
#pragma once

#include <memory>
#include <optional>
#include <utility>

#include "progress/operation.hpp"

namespace mcorecoll {

template <typename Rounds>
class RoundsOperation : public Operation {
 public:
  using Operation::Operation;

  bool step(bool may_call_mpi) override {
    if (!rounds_->advance(may_call_mpi, &waiting_on)) return false;
    rc = rounds_->rc;
    return true;
  }

 protected:
  std::optional<Rounds> rounds_;  // this activation's, made at begin()
};

// An operation whose every activation (each MPI_Start of a persistent request: new sequence
// numbers, the lease asked for again) makes its rounds by `make(rounds)`, which emplaces them
// from what it captured: the call's arguments, and any room the rounds write into (kept with
// the operation, where `make` lives).
template <typename Rounds, typename Make>
class MadeRounds final : public RoundsOperation<Rounds> {
 public:
  MadeRounds(CommContext& ctx, Make make) : RoundsOperation<Rounds>(ctx), make_(std::move(make)) {}
  void begin() override {
    this->rc = MPI_SUCCESS;
    make_(this->rounds_);
  }

 private:
  Make make_;
};

template <typename Rounds, typename Make>
std::unique_ptr<Operation> made_rounds(CommContext& ctx, Make make) {
  return std::make_unique<MadeRounds<Rounds, Make>>(ctx, std::move(make));
}

}  // namespace mcorecoll
