#include "allgather/allgatherv_shm.hpp"

#include <cstring>

#include "exchange/staged_exchange.hpp"

namespace mcorecoll {

void allgatherv_node_bytes(CommContext& ctx, const Config& config, const char* own, BlockBytes& recv) {
  const int me = ctx.node_rank;  // one node: node ranks are the ranks
  const std::uint64_t own_size = recv.size(me);
  ExchangeShape shape;
  shape.max_block = recv.largest();  // every rank's block sizes are the same bytes everywhere
  shape.gives = true;
  for (int r = 0; r < ctx.node_size; ++r)
    if (r != me) shape.sources.push_back(r);
  staged_exchange(
      ctx, config, shape,
      [&](char* tiles, std::uint64_t offset, std::uint64_t len) {
        copy_bytes(tiles, own + offset, clipped(own_size, offset, len));
      },
      [&](int r, const char* tiles, std::uint64_t offset, std::uint64_t len) {
        copy_bytes(recv.data(r) + offset, tiles, clipped(recv.size(r), offset, len));
      });
  if (own != recv.data(me)) copy_bytes(recv.data(me), own, own_size);
}

}  // namespace mcorecoll
