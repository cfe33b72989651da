#include "scatter/scatter_shm.hpp"

#include <algorithm>

namespace mcorecoll {

ExchangeRounds scatter_rounds(CommContext& ctx, const Config& config, int root, std::uint64_t max_block, char* own,
                              std::uint64_t own_size, BlockBytes* send) {
  const int me = ctx.node_rank, n = ctx.node_size;  // one node: node ranks are the ranks
  ExchangeShape shape;
  shape.per_destination = true;
  shape.max_block = max_block;
  shape.gives = me == root;
  if (me != root) shape.sources.push_back(root);
  return ExchangeRounds(
      ctx, config, std::move(shape),
      [n, root, send](char* tiles, std::uint64_t offset, std::uint64_t len) {
        for (int d = 0; d < n; ++d)
          if (d != root) copy_bytes(tiles + d * len, send->data(d) + offset, clipped(send->size(d), offset, len));
      },
      [me, own, own_size](int, const char* tiles, std::uint64_t offset, std::uint64_t len) {
        copy_bytes(own + offset, tiles + me * len, clipped(own_size, offset, len));
      });
}

void scatter_node_bytes(CommContext& ctx, const Config& config, int root, std::uint64_t max_block, char* own,
                        std::uint64_t own_size, BlockBytes* send) {
  ExchangeRounds rounds = scatter_rounds(ctx, config, root, max_block, own, own_size, send);
  run_to_end(rounds, ctx, config);
  if (ctx.node_rank == root && own) copy_bytes(own, send->data(root), std::min(own_size, send->size(root)));
}

}  // namespace mcorecoll
