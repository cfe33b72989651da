#include "lanes/lanes.hpp"

#include <algorithm>

#include "node/comm_context.hpp"

namespace mcorecoll {

const char* lanes_refusal(const CommContext& ctx, Collective c, bool blocking) {
  if (ctx.node_count == 1) return "lanes: the communicator lies on one node";
  const bool own_blocks = c == Collective::allgather || c == Collective::reduce_scatter_block ||
                          c == Collective::reduce_scatter;
  if (own_blocks && !ctx.nodes_of_equal_size())
    return "lanes: nodes of different sizes (each rank carries its own block: a lane a node rank of every node)";
  if (!ctx.lanes_fit()) return "lanes: nodes of different sizes, one of a single rank (one lane: the leaders' composition)";
  if (!blocking && !ctx.lanes_made)
    return "lanes: non-blocking or persistent before the lanes' communicator was made (at the set-up where "
           "MCORECOLL_LANES_MIN_BYTES or MCORECOLL_<X>=lanes is set, or by a blocking call through the lanes)";
  return nullptr;
}

MPI_Comm lanes_of(CommContext& ctx) {
  if (!ctx.lanes_made) ctx.make_lanes();
  return ctx.lanes_comm;
}

Slice slice_of(std::uint64_t total, int n, int r) {
  const auto ranks = static_cast<std::uint64_t>(n);
  const std::uint64_t per = total / ranks + (total % ranks != 0);
  const std::uint64_t first = std::min(total, per * static_cast<std::uint64_t>(r));
  return {per, first, std::min(per, total - first)};
}

SlicesGather::SlicesGather(CommContext& ctx, const Config& config, char* slices, std::uint64_t per) {
  const int me = ctx.node_rank, lanes = ctx.lanes;
  if (ctx.node_size == lanes) {
    every_.emplace(ctx, config, slices + per * static_cast<std::uint64_t>(me), slices, per);
    return;
  }
  ExchangeShape shape;
  shape.max_block = per;
  shape.gives = me < lanes;
  // The ranks past the lanes start at different lanes (me % lanes), so they do not all read
  // lane 0 first; the lanes start after themselves (ExchangeRounds).
  for (int k = 0; k < lanes; ++k) {
    const int r = me < lanes ? k : (me + k) % lanes;
    if (r != me) shape.sources.push_back(r);
  }
  const char* own = slices + per * static_cast<std::uint64_t>(std::min(me, lanes));
  some_.emplace(
      ctx, config, std::move(shape),
      [own, per](char* tiles, std::uint64_t offset, std::uint64_t len) {
        copy_bytes(tiles, own + offset, clipped(per, offset, len));
      },
      [slices, per](int r, const char* tiles, std::uint64_t offset, std::uint64_t len) {
        copy_bytes(slices + per * static_cast<std::uint64_t>(r) + offset, tiles, clipped(per, offset, len));
      });
}

}  // namespace mcorecoll
