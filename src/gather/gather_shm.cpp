#include "gather/gather_shm.hpp"

#include <algorithm>

namespace mcorecoll {

void gather_node_bytes(CommContext& ctx, const Config& config, int root, std::uint64_t max_block, const char* own,
                       std::uint64_t own_size, BlockBytes* recv) {
  ExchangeRounds rounds = gather_rounds(ctx, config, root, max_block, own, own_size, recv);
  run_to_end(rounds, ctx, config);
  if (ctx.node_rank == root && own) copy_bytes(recv->data(root), own, std::min(own_size, recv->size(root)));
}

}  // namespace mcorecoll
