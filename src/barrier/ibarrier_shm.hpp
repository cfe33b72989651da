// The non-blocking barrier on shared memory: every rank posts its arrival when it starts (so
// a node needs nothing more of a rank that has started it), then polls the others' arrivals;
// across nodes, the node leader joins PMPI_Ibarrier among the leaders once its node has
// arrived and releases the node when that completes.
#pragma once

#include <memory>

#include "progress/operation.hpp"

namespace mcorecoll {

struct Config;

// The communicator's shared segment must exist (ctx.shm). Begin it before its first step.
std::unique_ptr<Operation> make_ibarrier(CommContext& ctx);

}  // namespace mcorecoll
