#include "node/staged_rounds.hpp"

#include <algorithm>

#include "node/node_shm.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {

Round next_round(CommContext& ctx, const StagingAreas& staging, std::uint64_t len) {
  Round round;
  round.seq = ++ctx.channel.seq;
  round.h = static_cast<int>(round.seq & 1);
  round.half = staging.area / 2;
  round.len = static_cast<std::size_t>(len);
  round.staging = staging;
  return round;
}

std::uint64_t tile_bytes(const StagingAreas& staging, int ranks) {
  return std::max<std::uint64_t>(staging.area / 2 / static_cast<std::size_t>(ranks), 1);
}

int rank_using_half(const CommContext& ctx, NodeShm& shm, const Round& round) {
  for (int r = 0; r < ctx.node_size; ++r)
    if (r != ctx.node_rank &&
        !reached(shm.done(r).load(std::memory_order_acquire), ctx.channel.last_stage_seq[round.h]))
      return r;
  return -1;
}

}  // namespace mcorecoll
