// MPI_Gather and MPI_Gatherv inside one node: every rank but the root stages its block, the
// root copies every block into its place (exchange/staged_exchange.hpp, one tile shared by
// its one reader). Blocks of a line or less go through the reduction records.
#pragma once

#include <cstdint>

#include "common/block_bytes.hpp"
#include "exchange/staged_exchange.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// The exchange of one call, for the blocking form below and the operation of the others
// (igather_shm.hpp). `max_block`: the largest block (equal on every rank). The root
// passes `recv` (every rank's block), the others `own` and `own_size` (their block's bytes).
ExchangeRounds gather_rounds(CommContext& ctx, const Config& config, int root, std::uint64_t max_block,
                             const char* own, std::uint64_t own_size, BlockBytes* recv);

// The blocking form: the rounds to the end, then the root's own block (`own`, or null with
// MPI_IN_PLACE) into its place.
void gather_node_bytes(CommContext& ctx, const Config& config, int root, std::uint64_t max_block, const char* own,
                       std::uint64_t own_size, BlockBytes* recv);

}  // namespace mcorecoll
