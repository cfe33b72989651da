#include "gather/gather_shm.hpp"

#include <algorithm>
#include <cstring>

#include "exchange/staged_exchange.hpp"

namespace mcorecoll {

void gather_node_bytes(CommContext& ctx, const Config& config, int root, std::uint64_t max_block, const char* own,
                       std::uint64_t own_size, BlockBytes* recv) {
  const int me = ctx.node_rank;  // one node: node ranks are the ranks
  ExchangeShape shape;
  shape.max_block = max_block;
  shape.gives = me != root;
  if (me == root)
    for (int r = 0; r < ctx.node_size; ++r)
      if (r != root) shape.sources.push_back(r);
  staged_exchange(
      ctx, config, shape,
      [&](char* tiles, std::uint64_t offset, std::uint64_t len) {
        copy_bytes(tiles, own + offset, clipped(own_size, offset, len));
      },
      [&](int r, const char* tiles, std::uint64_t offset, std::uint64_t len) {
        copy_bytes(recv->data(r) + offset, tiles, clipped(recv->size(r), offset, len));
      });
  if (me == root && own) copy_bytes(recv->data(root), own, std::min(own_size, recv->size(root)));
}

}  // namespace mcorecoll
