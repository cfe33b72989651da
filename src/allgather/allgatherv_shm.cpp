#include "allgather/allgatherv_shm.hpp"

namespace mcorecoll {

ExchangeRounds allgatherv_rounds(CommContext& ctx, const Config& config, const char* own, BlockBytes& recv) {
  const int me = ctx.node_rank;  // one node: node ranks are the ranks
  const std::uint64_t own_size = recv.size(me);
  ExchangeShape shape;
  shape.max_block = recv.largest();  // every rank's block sizes are the same bytes everywhere
  shape.gives = true;
  for (int r = 0; r < ctx.node_size; ++r)
    if (r != me) shape.sources.push_back(r);
  BlockBytes* blocks = &recv;
  return ExchangeRounds(
      ctx, config, std::move(shape),
      [own, own_size](char* tiles, std::uint64_t offset, std::uint64_t len) {
        copy_bytes(tiles, own + offset, clipped(own_size, offset, len));
      },
      [blocks](int r, const char* tiles, std::uint64_t offset, std::uint64_t len) {
        copy_bytes(blocks->data(r) + offset, tiles, clipped(blocks->size(r), offset, len));
      });
}

void allgatherv_node_bytes(CommContext& ctx, const Config& config, const char* own, BlockBytes& recv) {
  ExchangeRounds rounds = allgatherv_rounds(ctx, config, own, recv);
  run_to_end(rounds, ctx, config);
}

}  // namespace mcorecoll
