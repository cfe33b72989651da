#include "lanes/lanes.hpp"

#include <algorithm>

#include "node/comm_context.hpp"

namespace mcorecoll {

const char* lanes_refusal(const CommContext& ctx, bool blocking) {
  if (ctx.node_count == 1) return "lanes: the communicator lies on one node";
  if (!ctx.nodes_of_equal_size()) return "lanes: nodes of different sizes";
  if (!blocking && ctx.lanes_comm == MPI_COMM_NULL)
    return "lanes: non-blocking or persistent before the lanes' communicator was made (at the set-up where "
           "MCORECOLL_LANES_MIN_BYTES or MCORECOLL_<X>=lanes is set, or by a blocking call through the lanes)";
  return nullptr;
}

MPI_Comm lanes_of(CommContext& ctx) {
  if (ctx.lanes_comm == MPI_COMM_NULL) ctx.make_lanes();
  return ctx.lanes_comm;
}

Slice slice_of(std::uint64_t total, int n, int r) {
  const auto ranks = static_cast<std::uint64_t>(n);
  const std::uint64_t per = total / ranks + (total % ranks != 0);
  const std::uint64_t first = std::min(total, per * static_cast<std::uint64_t>(r));
  return {per, first, std::min(per, total - first)};
}

}  // namespace mcorecoll
