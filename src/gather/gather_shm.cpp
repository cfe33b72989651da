#include "gather/gather_shm.hpp"

#include <algorithm>

namespace mcorecoll {

ExchangeRounds gather_rounds(CommContext& ctx, const Config& config, int root, std::uint64_t max_block,
                             const char* own, std::uint64_t own_size, BlockBytes* recv) {
  const int me = ctx.node_rank;  // one node: node ranks are the ranks
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

void gather_node_bytes(CommContext& ctx, const Config& config, int root, std::uint64_t max_block, const char* own,
                       std::uint64_t own_size, BlockBytes* recv) {
  ExchangeRounds rounds = gather_rounds(ctx, config, root, max_block, own, own_size, recv);
  run_to_end(rounds, ctx, config);
  if (ctx.node_rank == root && own) copy_bytes(recv->data(root), own, std::min(own_size, recv->size(root)));
}

}  // namespace mcorecoll
