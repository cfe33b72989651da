// MPI_Alltoallv inside one node: every rank stages a tile of each of its blocks, one per
// destination, and copies its tile out of every other rank's area (exchange/staged_exchange.hpp,
// a tile per destination); blocks whose tiles fit a line together through the reduction records.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "common/block_bytes.hpp"
#include "exchange/staged_exchange.hpp"

namespace mcorecoll {

// `send->data(d)`, `send->size(d)`: the bytes for rank d; `recv`: room for those from each rank;
// `max_block`: the largest block any node rank sends to another (equal on every node rank). The
// exchange of one call among the node's ranks (inside one node every rank; across nodes, the
// blocks that stay on the node: alltoallv_across_nodes.hpp), for the blocking form below and the
// persistent operations.
template <typename Send>
ExchangeRounds alltoallv_rounds(CommContext& ctx, const Config& config, std::uint64_t max_block, Send* send,
                                BlockBytes* recv) {
  const int me = ctx.node_rank, n = ctx.node_size;
  // The node's ranks by node rank (inside one node, the ranks themselves).
  const std::vector<int>* mates = &ctx.node_members[static_cast<std::size_t>(ctx.node_index)];
  ExchangeShape shape;
  shape.per_destination = true;
  shape.max_block = max_block;
  shape.gives = true;
  for (int r = 0; r < n; ++r)
    if (r != me) shape.sources.push_back(r);
  return ExchangeRounds(
      ctx, config, std::move(shape),
      // Past a block's end nothing is copied, and its pointer is not moved (an empty block's
      // may be null).
      [send, me, n, mates](char* tiles, std::uint64_t offset, std::uint64_t len) {
        for (int t = 0; t < n; ++t) {
          const int d = (*mates)[static_cast<std::size_t>(t)];
          if (const std::uint64_t k = clipped(send->size(d), offset, len); t != me && k)
            copy_bytes(tiles + t * len, send->data(d) + offset, k);
        }
      },
      [recv, me, mates](int r, const char* tiles, std::uint64_t offset, std::uint64_t len) {
        const int s = (*mates)[static_cast<std::size_t>(r)];
        if (const std::uint64_t k = clipped(recv->size(s), offset, len))
          copy_bytes(recv->data(s) + offset, tiles + me * len, k);
      });
}

// The blocking form: the rounds to the end, then this rank's own block.
template <typename Send>
void alltoallv_node_bytes(CommContext& ctx, const Config& config, std::uint64_t max_block, Send& send,
                          BlockBytes& recv) {
  const int me = ctx.node_rank;
  if (max_block > 0) {
    ExchangeRounds rounds = alltoallv_rounds(ctx, config, max_block, &send, &recv);
    run_to_end(rounds, ctx, config);
  }
  copy_bytes(recv.data(me), send.data(me), std::min(send.size(me), recv.size(me)));
}

}  // namespace mcorecoll
