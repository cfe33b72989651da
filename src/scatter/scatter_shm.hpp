// MPI_Scatter and MPI_Scatterv inside one node: the root stages a tile of every rank's block,
// each rank copies its own tile out (exchange/rooted_rounds.hpp, a tile per destination).
// Blocks whose tiles fit a line together go through the root's reduction record.
#pragma once

#include <cstdint>

#include "common/block_bytes.hpp"
#include "exchange/rooted_rounds.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// The blocking form: scatter_rounds() (exchange/rooted_rounds.hpp; the operation of the other
// forms, iscatter_shm.hpp, takes them by steps) to the end, then the root's own block into `own` (null with
// MPI_IN_PLACE).
void scatter_node_bytes(CommContext& ctx, const Config& config, int root, std::uint64_t max_block, char* own,
                        std::uint64_t own_size, BlockBytes* send);

}  // namespace mcorecoll
