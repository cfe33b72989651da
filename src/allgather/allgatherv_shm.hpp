// MPI_Allgatherv inside one node: every rank stages a tile of its block once, every rank copies
// every other rank's tile into its place (exchange/staged_exchange.hpp, one tile for all
// readers); blocks of a line or less through the reduction records.
#pragma once

#include <cstdint>

#include "common/block_bytes.hpp"
#include "exchange/staged_exchange.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// The exchange of one call, for the blocking form below and the operation of the others
// (iallgatherv_shm.hpp). `own`: this rank's block's bytes; `recv`: every rank's block.
ExchangeRounds allgatherv_rounds(CommContext& ctx, const Config& config, const char* own, BlockBytes& recv);

// The blocking form: the rounds to the end (this rank's own block is the caller's to place:
// allgather_bytes.hpp).
void allgatherv_node_bytes(CommContext& ctx, const Config& config, const char* own, BlockBytes& recv);

}  // namespace mcorecoll
