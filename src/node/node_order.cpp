#include "node/node_order.hpp"

#include <cstring>

#include "node/comm_context.hpp"

namespace mcorecoll {

NodeOrder::NodeOrder(const CommContext& ctx, std::uint64_t block) {
  const std::size_t nodes = static_cast<std::size_t>(ctx.node_count);
  first.assign(nodes + 1, 0);
  counts.resize(nodes);
  displs.resize(nodes);
  for (std::size_t k = 0; k < nodes; ++k) {
    first[k + 1] = first[k] + static_cast<int>(ctx.node_members[k].size());
    counts[k] = static_cast<int>(ctx.node_members[k].size() * block);
    displs[k] = static_cast<int>(static_cast<std::size_t>(first[k]) * block);
  }
}

int NodeOrder::at(const CommContext& ctx, int r) const {
  const RankPlace& p = ctx.places[static_cast<std::size_t>(r)];
  return first[static_cast<std::size_t>(p.node)] + p.node_rank;
}

void NodeOrder::place_by_rank(const CommContext& ctx, const char* all, char* recv, std::uint64_t block) const {
  for (int r = 0; r < ctx.size; ++r)
    std::memcpy(recv + static_cast<std::size_t>(r) * block, all + static_cast<std::size_t>(at(ctx, r)) * block, block);
}

NodeOrderBytes::NodeOrderBytes(const CommContext& ctx, const std::vector<std::uint64_t>& block_sizes)
    : sizes(block_sizes) {
  const std::size_t nodes = static_cast<std::size_t>(ctx.node_count);
  counts.resize(nodes);
  displs.resize(nodes);
  at.resize(sizes.size());
  for (std::size_t k = 0; k < nodes; ++k) {
    displs[k] = static_cast<int>(total);
    for (const int r : ctx.node_members[k]) {
      at[static_cast<std::size_t>(r)] = total;
      total += sizes[static_cast<std::size_t>(r)];
    }
    counts[k] = static_cast<int>(total - static_cast<std::uint64_t>(displs[k]));
  }
}

}  // namespace mcorecoll
