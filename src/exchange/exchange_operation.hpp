// The staged exchange's rounds (staged_exchange.hpp, ExchangeRounds) as an operation of the
// progress engine: the one adapter of the non-blocking and persistent forms of the collectives
// inside one node that move blocks (gather, scatter, allgatherv, the scans; the persistent
// v-forms, whose ranks agree on the largest block when they initialize). Each family's operation
// makes its rounds at begin(), packing first, and unpacks (the scans: folds) at finish(), in the
// application's thread; the steps call no MPI function. The callers (calls/*_calls.cpp) route
// and check first, as for the blocking forms.
#pragma once

#include <mpi.h>

#include <optional>

#include "common/block_bytes.hpp"
#include "exchange/staged_exchange.hpp"
#include "progress/operation.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// What every such operation shares: its rounds, made at begin(), and their steps.
class ExchangeOperation : public Operation {
 public:
  ExchangeOperation(CommContext& ctx, const Config& config) : Operation(ctx), config_(config) {}
  bool step(bool) override { return !rounds_ || rounds_->advance(&waiting_on); }

 protected:
  const Config& config_;
  std::optional<ExchangeRounds> rounds_;
};

// The root's blocks of a gather or scatter: `count` elements each, one after another, or
// (gatherv, scatterv) counts[i] elements at displs[i] extents.
struct RootBlocks {
  int count = 0;
  const int* counts = nullptr;
  const int* displs = nullptr;
};

// The root's blocks as BlockBytes (RootBlocks' two shapes).
inline void emplace_root_blocks(std::optional<BlockBytes>& blocks, void* buffer, int n, RootBlocks shape, MPI_Datatype type) {
  if (shape.counts) blocks.emplace(buffer, n, shape.counts, shape.displs, type);
  else blocks.emplace(buffer, n, shape.count, type);
  blocks->hold_types();
}

}  // namespace mcorecoll
