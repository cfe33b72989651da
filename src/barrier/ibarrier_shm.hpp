// The non-blocking and persistent barrier on shared memory: the barrier's rounds
// (barrier_shm.hpp) taken as the progress engine gives them; the node leaders' exchange across
// nodes is posted, then tested.
#pragma once

#include <memory>

#include "progress/operation.hpp"

namespace mcorecoll {

struct Config;

// The communicator's shared segment must exist (ctx.channel.shm). Begin it before its first step.
// `algorithm`: as BarrierRounds takes it.
std::unique_ptr<Operation> make_ibarrier(CommContext& ctx, const Config& config, int algorithm);

}  // namespace mcorecoll
