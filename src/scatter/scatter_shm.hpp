// MPI_Scatter and MPI_Scatterv inside one node: the root stages a tile of every rank's block,
// each rank copies its own tile out (exchange/staged_exchange.hpp, a tile per destination).
// Blocks whose tiles fit a line together go through the root's reduction record.
#pragma once

#include <cstdint>

#include "common/block_bytes.hpp"
#include "exchange/staged_exchange.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// The exchange of one call, for the blocking form below and the operation of the others
// (iscatter_shm.hpp). `max_block`: the largest block (equal on every rank). The root
// passes `send` (every rank's block), the others `own` and `own_size` (their receive bytes).
ExchangeRounds scatter_rounds(CommContext& ctx, const Config& config, int root, std::uint64_t max_block, char* own,
                              std::uint64_t own_size, BlockBytes* send);

// The blocking form: the rounds to the end, then the root's own block into `own` (null with
// MPI_IN_PLACE).
void scatter_node_bytes(CommContext& ctx, const Config& config, int root, std::uint64_t max_block, char* own,
                        std::uint64_t own_size, BlockBytes* send);

}  // namespace mcorecoll
