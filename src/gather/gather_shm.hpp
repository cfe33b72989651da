// MPI_Gather and MPI_Gatherv inside one node: every rank but the root stages its block, the
// root copies every block into its place (exchange/rooted_rounds.hpp, one tile shared by
// its one reader). Blocks of a line or less go through the reduction records.
#pragma once

#include <cstdint>

#include "common/block_bytes.hpp"
#include "exchange/rooted_rounds.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// The blocking form: gather_rounds() (exchange/rooted_rounds.hpp; the operation of the other
// forms, igather_shm.hpp, takes them by steps) to the end, then the root's own block (`own`, or null with
// MPI_IN_PLACE) into its place.
void gather_node_bytes(CommContext& ctx, const Config& config, int root, std::uint64_t max_block, const char* own,
                       std::uint64_t own_size, BlockBytes* recv);

}  // namespace mcorecoll
