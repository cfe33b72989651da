#include "exchange/staged_exchange.hpp"

#include <algorithm>

#include "allgather/allgather_shm.hpp"

namespace mcorecoll {

std::uint64_t agree_max(CommContext& ctx, const Config& config, std::uint64_t mine, std::vector<std::uint64_t>* all) {
  std::vector<std::uint64_t> values(static_cast<std::size_t>(ctx.node_size));
  allgather_node_bytes(ctx, config, reinterpret_cast<const char*>(&mine), reinterpret_cast<char*>(values.data()),
                       sizeof mine);
  const std::uint64_t max = *std::max_element(values.begin(), values.end());
  if (all) *all = std::move(values);
  return max;
}

}  // namespace mcorecoll
