// The one adapter between an algorithm written as resumable rounds (the barrier, the bcast, the
// alltoall, the allgather, the scans and the reductions across nodes: an `advance(may_call_mpi,
// &waiting_on)` that is true once this rank's part is over, and its `rc`) and the progress
// engine: a family's operation makes the activation's rounds at begin() (packing first), every
// step advances them, and the request reports their error.
#pragma once

#include <optional>

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

}  // namespace mcorecoll
