// Which path a call takes. Decided only from values the MPI standard makes equal on all ranks
// of the communicator (the byte size of the type signature) and from settings checked equal on
// all ranks, so every rank takes the same path. Pure; unit-tested.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/shm_layout.hpp"
#include "decisions/collective.hpp"
#include "decisions/config.hpp"
#include "decisions/node_algorithms.hpp"

namespace mcorecoll {

struct Route {
  int path = 0;             // 0: pmpi; k + 1: algorithm_names(c)[k]
  const char* reason = "";  // why pmpi was chosen (empty when an algorithm was); static
};

// Path numbers of the bcast and alltoall algorithms (see algorithm_names(); the node algorithms of
// the others: node_algorithms.hpp).
constexpr int kBcastRing = 1;
constexpr int kBcastCma = 2;
constexpr int kBcastLanes = 3;  // across nodes (lanes/bcast_lanes.hpp)
constexpr int kAlltoallStaged = 1;
constexpr int kAlltoallCma = 2;
constexpr int kReduceScatterLanes = 2;  // both reduce-scatters across nodes (lanes/reduce_scatter_lanes.hpp)
// The lanes' path of collective `c` (0: it has none).
constexpr int lanes_path(Collective c) {
  return c == Collective::bcast                                  ? kBcastLanes
         : c == Collective::allreduce || c == Collective::reduce ? kReductionLanes
         : c == Collective::allgather                            ? kAllgatherLanes
         : c == Collective::reduce_scatter_block || c == Collective::reduce_scatter ? kReduceScatterLanes
                                                                 : 0;
}

// Whether the settings send any call to the lanes: MCORECOLL_LANES_MIN_BYTES, or a collective
// forced onto them.
bool lanes_wanted(const Config& config);

// `bytes`: the size of the message's type signature (bcast: the whole message; alltoall: one
// block). Ignored for barrier. `spans_nodes`: the communicator has ranks on several nodes.
// `row`: the communicator's row of the collective's decision table (decision_table.hpp); auto
// mode follows it, unless the collective's size bounds were given (Config::bounds_set) or there
// is no row, when those bounds decide.
// `lanes`: whether the lanes may be chosen (false: the route as if their bound were not set).
Route choose_route(Collective c, const Config& config, std::uint64_t bytes, bool spans_nodes = false,
                   const TableRow* row = nullptr, bool lanes = true);

// The size bands auto mode gives collective `c` on a communicator, as choose_route() decides
// them (the last band's sizes and everything above go to PMPI when its path is not 0).
std::vector<Band> auto_bands(Collective c, const Config& config, bool spans_nodes, const TableRow* row);

// The sizes, from 0, that auto mode or the settings give collective `c` to PMPI: every `bytes`
// below the answer goes there (0: none; kEverySize: all), so that a call of such a size may go
// there without the rest of the decision (entry/fast_handoff.hpp). Exact: the answer itself
// takes an algorithm, except across nodes with learning on, where the sizes above a nodes
// bound are decided in full (learning may try the composition there).
constexpr std::uint64_t kEverySize = ~0ull;
std::uint64_t pmpi_below(Collective c, const Config& config, bool spans_nodes, const TableRow* row);

// What mcorecoll-info shows of a communicator: for every collective, the path of each size band
// and why (a setting that forces it, the size bounds given, the table row it follows and where
// that row comes from, or the reason every call goes to PMPI).
struct CommunicatorView {
  std::string pmpi_reason;  // non-empty: every call goes to PMPI
  int node_count = 1, node_size = 1, max_node_size = 1;
  bool any_oversubscribed = false;
  std::array<const TableRow*, kCollectiveCount> table_rows = {};
};
std::string explain_routes(const Config& config, const CommunicatorView& view);

}  // namespace mcorecoll
