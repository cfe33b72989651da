// The staged exchange's two rooted shapes inside one node (staged_exchange.hpp): every node
// rank's block to one (gather_rounds: one tile shared by its one reader) and one rank's block for
// each node rank out to it (scatter_rounds: a tile per destination). Blocks that fit a line go
// through the reduction records. MPI_Gather(v) and MPI_Scatter(v) are these inside one node;
// the compositions across nodes take them for their node phases (gather/, scatter/, alltoall/).
#pragma once

#include <cstdint>

#include "common/block_bytes.hpp"
#include "exchange/staged_exchange.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// `root`: a node rank; `max_block`: the largest block (equal on every node rank). The root
// passes `recv` (every node rank's block), the others `own` and `own_size` (their block's bytes).
ExchangeRounds gather_rounds(CommContext& ctx, const Config& config, int root, std::uint64_t max_block,
                             const char* own, std::uint64_t own_size, BlockBytes* recv);

// The root passes `send` (every node rank's block), the others `own` and `own_size` (their
// receive bytes).
ExchangeRounds scatter_rounds(CommContext& ctx, const Config& config, int root, std::uint64_t max_block, char* own,
                              std::uint64_t own_size, BlockBytes* send);

}  // namespace mcorecoll
