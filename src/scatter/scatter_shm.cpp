#include "scatter/scatter_shm.hpp"

#include <algorithm>

namespace mcorecoll {

void scatter_node_bytes(CommContext& ctx, const Config& config, int root, std::uint64_t max_block, char* own,
                        std::uint64_t own_size, BlockBytes* send) {
  ExchangeRounds rounds = scatter_rounds(ctx, config, root, max_block, own, own_size, send);
  run_to_end(rounds, ctx, config);
  if (ctx.node_rank == root && own) copy_bytes(own, send->data(root), std::min(own_size, send->size(root)));
}

}  // namespace mcorecoll
