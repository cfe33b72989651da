// Which path a call takes. Decided only from values the MPI standard makes equal on all ranks
// of the communicator (the byte size of the type signature) and from settings checked equal on
// all ranks, so every rank takes the same path. Pure; unit-tested.
#pragma once

#include <cstdint>
#include <string>

#include "collective.hpp"
#include "config.hpp"

namespace mcorecoll {

struct Route {
  int path = 0;             // 0: pmpi; k + 1: algorithm_names(c)[k]
  const char* reason = "";  // why pmpi was chosen (empty when an algorithm was); static
};

// Path numbers of the bcast and alltoall algorithms (see algorithm_names()).
constexpr int kBcastShm = 1;
constexpr int kBcastCma = 2;
constexpr int kAlltoallShm = 1;
constexpr int kAlltoallCma = 2;

// `bytes`: the size of the message's type signature (bcast: the whole message; alltoall: one
// block). Ignored for barrier. `spans_nodes`: the communicator has ranks on several nodes.
Route choose_route(Collective c, const Config& config, std::uint64_t bytes, bool spans_nodes = false);

}  // namespace mcorecoll
