// MPI_Scatter and MPI_Scatterv inside one node: the root stages a tile of every rank's block,
// each rank copies its own tile out (exchange/staged_exchange.hpp, a tile per destination).
// Blocks whose tiles fit a line together go through the root's reduction record.
#pragma once

#include <cstdint>

#include "common/block_bytes.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// `max_block`: the largest block (equal on every rank). The root passes `send` (every rank's
// block) and `own` (where its own block goes, or null with MPI_IN_PLACE); the others `own`
// and `own_size` (their receive bytes), and no `send`.
void scatter_node_bytes(CommContext& ctx, const Config& config, int root, std::uint64_t max_block, char* own,
                        std::uint64_t own_size, BlockBytes* send);

}  // namespace mcorecoll
