#include "exchange/rooted_rounds.hpp"

#include <utility>

#include "node/comm_context.hpp"

namespace mcorecoll {

ExchangeRounds gather_rounds(CommContext& ctx, const Config& config, int root, std::uint64_t max_block,
                             const char* own, std::uint64_t own_size, BlockBytes* recv) {
  const int me = ctx.node_rank;
  ExchangeShape shape;
  shape.max_block = max_block;
  shape.gives = me != root;
  if (me == root)
    for (int r = 0; r < ctx.node_size; ++r)
      if (r != root) shape.sources.push_back(r);
  return ExchangeRounds(
      ctx, config, std::move(shape),
      [own, own_size](char* tiles, std::uint64_t offset, std::uint64_t len) {
        copy_bytes(tiles, own + offset, clipped(own_size, offset, len));
      },
      [recv](int r, const char* tiles, std::uint64_t offset, std::uint64_t len) {
        copy_bytes(recv->data(r) + offset, tiles, clipped(recv->size(r), offset, len));
      });
}

ExchangeRounds scatter_rounds(CommContext& ctx, const Config& config, int root, std::uint64_t max_block, char* own,
                              std::uint64_t own_size, BlockBytes* send) {
  const int me = ctx.node_rank, n = ctx.node_size;
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

}  // namespace mcorecoll
