#include "decisions/route.hpp"

#include <sstream>

namespace mcorecoll {
namespace {

// Reasons are static strings: routing runs on every call and must not allocate.
constexpr const char* kForcedPmpi[kCollectiveCount] = {
    "MCORECOLL_BARRIER=pmpi", "MCORECOLL_BCAST=pmpi", "MCORECOLL_ALLTOALL=pmpi",
    "MCORECOLL_ALLREDUCE=pmpi", "MCORECOLL_REDUCE=pmpi", "MCORECOLL_ALLGATHER=pmpi",
    "MCORECOLL_ALLTOALLV=pmpi",
    "MCORECOLL_ALLGATHERV=pmpi",
    "MCORECOLL_GATHER=pmpi",
    "MCORECOLL_GATHERV=pmpi",
    "MCORECOLL_SCATTER=pmpi",
    "MCORECOLL_SCATTERV=pmpi",
    "MCORECOLL_REDUCE_SCATTER_BLOCK=pmpi",
    "MCORECOLL_REDUCE_SCATTER=pmpi",
    "MCORECOLL_SCAN=pmpi",
    "MCORECOLL_EXSCAN=pmpi"};
constexpr const char* kNoAlgorithm[kCollectiveCount] = {
    "no shared-memory barrier in this version of mcorecoll",
    "no shared-memory bcast in this version of mcorecoll",
    "no shared-memory alltoall in this version of mcorecoll",
    "no shared-memory allreduce in this version of mcorecoll",
    "no shared-memory reduce in this version of mcorecoll",
    "no shared-memory allgather in this version of mcorecoll",
    "no shared-memory alltoallv in this version of mcorecoll",
    "no shared-memory allgatherv in this version of mcorecoll",
    "no shared-memory gather in this version of mcorecoll",
    "no shared-memory gatherv in this version of mcorecoll",
    "no shared-memory scatter in this version of mcorecoll",
    "no shared-memory scatterv in this version of mcorecoll",
    "no shared-memory reduce_scatter_block in this version of mcorecoll",
    "no shared-memory reduce_scatter in this version of mcorecoll",
    "no shared-memory scan in this version of mcorecoll",
    "no shared-memory exscan in this version of mcorecoll"};
// Without a table row for the node size (or bounds given), sizes above the bound go to PMPI.
constexpr const char* kAboveMax[kCollectiveCount] = {
    "", "bcast message above MCORECOLL_BCAST_MAX_BYTES",
    "alltoall block above MCORECOLL_ALLTOALL_MAX_BYTES",
    "allreduce message above MCORECOLL_ALLREDUCE_MAX_BYTES (no measured row for this node size)",
    "reduce message above MCORECOLL_REDUCE_MAX_BYTES (no measured row for this node size)",
    "allgather block above MCORECOLL_ALLGATHER_MAX_BYTES (no measured row for this node size)",
    "alltoallv above MCORECOLL_ALLTOALLV_MAX_BYTES (no measured row for this node size)",
    "allgatherv above MCORECOLL_ALLGATHERV_MAX_BYTES (no measured row for this node size)",
    "gather above MCORECOLL_GATHER_MAX_BYTES (no measured row for this node size)",
    "gatherv above MCORECOLL_GATHERV_MAX_BYTES (no measured row for this node size)",
    "scatter above MCORECOLL_SCATTER_MAX_BYTES (no measured row for this node size)",
    "scatterv above MCORECOLL_SCATTERV_MAX_BYTES (no measured row for this node size)",
    "reduce_scatter_block above MCORECOLL_REDUCE_SCATTER_BLOCK_MAX_BYTES (no measured row for this node size)",
    "reduce_scatter above MCORECOLL_REDUCE_SCATTER_MAX_BYTES (no measured row for this node size)",
    "scan above MCORECOLL_SCAN_MAX_BYTES (no measured row for this node size)",
    "exscan above MCORECOLL_EXSCAN_MAX_BYTES (no measured row for this node size)"};
constexpr const char* kTablePmpi[kCollectiveCount] = {
    "", "the decision table gives this bcast size to PMPI (mcorecoll-info shows the bands)",
    "the decision table gives this alltoall block size to PMPI (mcorecoll-info shows the bands)",
    "the decision table gives this allreduce size to PMPI (mcorecoll-info shows the bands)",
    "the decision table gives this reduce size to PMPI (mcorecoll-info shows the bands)",
    "the decision table gives this allgather block size to PMPI (mcorecoll-info shows the bands)",
    "the decision table gives this alltoallv size to PMPI (mcorecoll-info shows the bands)",
    "the decision table gives this allgatherv size to PMPI (mcorecoll-info shows the bands)",
    "the decision table gives this gather size to PMPI (mcorecoll-info shows the bands)",
    "the decision table gives this gatherv size to PMPI (mcorecoll-info shows the bands)",
    "the decision table gives this scatter size to PMPI (mcorecoll-info shows the bands)",
    "the decision table gives this scatterv size to PMPI (mcorecoll-info shows the bands)",
    "the decision table gives this reduce_scatter_block size to PMPI (mcorecoll-info shows the bands)",
    "the decision table gives this reduce_scatter size to PMPI (mcorecoll-info shows the bands)",
    "the decision table gives this scan size to PMPI (mcorecoll-info shows the bands)",
    "the decision table gives this exscan size to PMPI (mcorecoll-info shows the bands)"};

// Across nodes, in auto mode: the largest size that takes mcorecoll's path (~0: any).
std::uint64_t nodes_max_bytes(Collective c, const Config& config) {
  if (c == Collective::alltoall) return config.alltoall_nodes_max_bytes;
  if (c == Collective::allreduce || c == Collective::reduce) return config.reduce_nodes_max_bytes;
  if (c == Collective::allgather) return config.allgather_nodes_max_bytes;
  return ~0ull;
}
constexpr const char* kAboveNodesMax[kCollectiveCount] = {
    "", "", "alltoall across nodes with blocks above MCORECOLL_ALLTOALL_NODES_MAX_BYTES",
    "allreduce across nodes above MCORECOLL_REDUCE_NODES_MAX_BYTES",
    "reduce across nodes above MCORECOLL_REDUCE_NODES_MAX_BYTES",
    "allgather across nodes with blocks above MCORECOLL_ALLGATHER_NODES_MAX_BYTES",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    ""};

// Across nodes, a bcast the table or the bounds leave to PMPI takes the ring up to
// MCORECOLL_BCAST_NODES_RING_BYTES (never where the user's own bounds decide).
bool bcast_ring_across_nodes(Collective c, const Config& config, std::uint64_t bytes, bool spans_nodes) {
  return c == Collective::bcast && spans_nodes && !config.bounds_set[static_cast<int>(c)] &&
         config.bcast_nodes_ring_bytes > 0 && bytes <= config.bcast_nodes_ring_bytes;
}

}  // namespace

Route choose_route(Collective c, const Config& config, std::uint64_t bytes, bool spans_nodes,
                   const TableRow* row) {
  const int i = static_cast<int>(c);
  if (config.disable) return {0, "MCORECOLL_DISABLE is set"};
  const int forced = config.forced_path[i];
  if (forced == 0) return {0, kForcedPmpi[i]};
  if (forced > 0) return {forced, ""};
  if (algorithm_names(c).empty()) return {0, kNoAlgorithm[i]};
  if (c == Collective::barrier) return {1, ""};
  if (spans_nodes && bytes > nodes_max_bytes(c, config)) return {0, kAboveNodesMax[i]};
  if (row && !config.bounds_set[i]) {
    int path = band_path(row->bands, bytes);
    // Across nodes the leaders exchange staged tiles: no single copy.
    if (c == Collective::alltoall && spans_nodes && path == kAlltoallCma) path = kAlltoallShm;
    if (path == 0 && bcast_ring_across_nodes(c, config, bytes, spans_nodes)) path = kBcastShm;
    return {path, path == 0 ? kTablePmpi[i] : ""};
  }
  if (bytes > config.max_bytes[i])
    return bcast_ring_across_nodes(c, config, bytes, spans_nodes) ? Route{kBcastShm, ""} : Route{0, kAboveMax[i]};
  if (c == Collective::bcast && bytes >= config.bcast_cma_min_bytes) return {kBcastCma, ""};
  if (c == Collective::alltoall && !spans_nodes && bytes >= config.alltoall_cma_min_bytes)
    return {kAlltoallCma, ""};
  return {1, ""};
}

std::uint64_t pmpi_below(Collective c, const Config& config, bool spans_nodes, const TableRow* row) {
  const int forced = config.forced_path[static_cast<int>(c)];
  if (config.disable || forced == 0) return kEverySize;
  if (forced > 0) return 0;
  if (algorithm_names(c).empty()) return kEverySize;
  if (c == Collective::barrier) return 0;
  const std::vector<Band> bands = auto_bands(c, config, spans_nodes, row);
  // Sizes past the last band go to PMPI (auto_bands()), as do those of leading PMPI bands.
  std::uint64_t below = 0;
  for (const Band& b : bands) {
    if (b.path != kPmpiPath) return below;
    if (b.max_bytes == kEverySize) return kEverySize;
    below = b.max_bytes + 1;
  }
  return kEverySize;
}

std::vector<Band> auto_bands(Collective c, const Config& config, bool spans_nodes, const TableRow* row) {
  const int i = static_cast<int>(c);
  std::vector<Band> bands;
  if (row && !config.bounds_set[i]) {
    bands = row->bands;
    if (c == Collective::alltoall && spans_nodes) {
      for (Band& b : bands)
        if (b.path == kAlltoallCma) b.path = kAlltoallShm;
    }
  } else {
    const std::uint64_t max = config.max_bytes[i];
    const std::uint64_t cma_min = c == Collective::bcast                      ? config.bcast_cma_min_bytes
                                  : c == Collective::alltoall && !spans_nodes ? config.alltoall_cma_min_bytes
                                                                              : ~0ull;
    if (cma_min > 0) bands.push_back({std::min(max, cma_min - 1), 1});
    if (cma_min <= max) bands.push_back({max, c == Collective::bcast ? kBcastCma : kAlltoallCma});
  }
  const std::uint64_t nodes_max = nodes_max_bytes(c, config);
  if (spans_nodes && nodes_max != ~0ull) {  // PMPI above the bound across nodes
    std::vector<Band> capped;
    for (Band b : bands) {
      if (!capped.empty() && capped.back().max_bytes >= nodes_max) break;
      b.max_bytes = std::min(b.max_bytes, nodes_max);
      capped.push_back(b);
    }
    bands = capped;
  }
  if (bcast_ring_across_nodes(c, config, 0, spans_nodes)) {  // PMPI below the ring bound: the ring
    const std::uint64_t ring = config.bcast_nodes_ring_bytes;
    std::vector<Band> widened;
    std::uint64_t from = 0;
    auto add = [&](std::uint64_t max, int path) {
      if (!widened.empty() && widened.back().path == path) widened.back().max_bytes = max;
      else widened.push_back({max, path});
    };
    for (const Band& b : bands) {
      if (b.path == 0 && from <= ring) {
        add(std::min(b.max_bytes, ring), kBcastShm);
        if (b.max_bytes > ring) add(b.max_bytes, 0);
      } else {
        add(b.max_bytes, b.path);
      }
      from = b.max_bytes + 1;
      if (b.max_bytes == ~0ull) break;
    }
    if (bands.empty() || bands.back().max_bytes < ring) add(ring, kBcastShm);
    bands = widened;
  }
  return bands;
}

namespace {

const char* algorithm_words(Collective c, int path) {
  if (path == 0) return "pmpi";
  if (c == Collective::barrier) return "shm";
  if (c == Collective::bcast) return path == kBcastShm ? "shm (the ring)" : "cma (single copy)";
  if (c == Collective::allreduce || c == Collective::reduce) return "shm (staged, combined in rank order)";
  if (c == Collective::allgather) return "shm (staging)";
  if (c == Collective::reduce_scatter_block || c == Collective::reduce_scatter)
    return "shm (the staged allreduce, combined in rank order)";
  if (c == Collective::scan || c == Collective::exscan) return "shm (staged, each prefix folded in rank order)";
  if (node_only(c)) return "shm (staging)";
  return path == kAlltoallShm ? "shm (staging)" : "cma (single copy)";
}

std::string size_words(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (u < 4 && bytes >= 1024 && bytes % 1024 == 0) bytes /= 1024, ++u;
  return std::to_string(bytes) + " " + units[u];
}

}  // namespace

std::string explain_routes(const Config& config, const CommunicatorView& view) {
  std::ostringstream out;
  if (!view.pmpi_reason.empty()) {
    out << "  every collective goes to PMPI: " << view.pmpi_reason << "\n";
    return out.str();
  }
  const bool spans = view.node_count > 1;
  for (Collective c : kAllCollectives) {
    const int i = static_cast<int>(c);
    out << "  " << collective_name(c) << ": ";
    if (config.disable) {
      out << "pmpi (MCORECOLL_DISABLE)\n";
      continue;
    }
    if (config.forced_path[i] >= 0) {
      out << "always " << algorithm_words(c, config.forced_path[i]) << " (MCORECOLL_" << setting_name(c)
          << "=" << config.mode[i] << ")\n";
      continue;
    }
    if (c == Collective::barrier) {
      const bool all_poll = !spans && view.node_size <= config.barrier_all_poll_max;
      out << "shm, " << (all_poll ? "all-poll" : "gather-and-release tree") << " ("
          << (spans ? "across nodes" : std::to_string(view.node_size) + " ranks on one node") << "; all-poll on one node up to "
          << config.barrier_all_poll_max << " ranks, MCORECOLL_BARRIER_ALL_POLL_MAX)\n";
      continue;
    }
    const TableRow* row = view.table_rows[static_cast<std::size_t>(i)];
    std::uint64_t from = 0;
    for (const Band& b : auto_bands(c, config, spans, row)) {
      out << size_words(from) << "-" << size_words(b.max_bytes) << " " << algorithm_words(c, b.path) << ", ";
      from = b.max_bytes + 1;
    }
    out << (from ? "above: pmpi" : "pmpi at every size") << "\n    why: ";
    if (!row && !config.bounds_set[i]) {
      out << "no decision table row for " << collective_name(c) << " (MCORECOLL_" << setting_name(c)
          << "_PATHS_NP<N> adds one)";
    } else if (!row || config.bounds_set[i]) {
      out << "MCORECOLL_" << setting_name(c) << "_MAX_BYTES / _CMA_MIN_BYTES were given; they decide instead of the table";
    } else {
      out << "decision table row MCORECOLL_" << row_setting_name(c, row->ranks, row->oversubscribed);
      if (row->ranks != view.max_node_size || row->oversubscribed != view.any_oversubscribed)
        out << ", the nearest to this communicator's " << view.max_node_size << " ranks per node"
            << (view.any_oversubscribed ? " (oversubscribed)" : "");
      out << "; " << row->source;
    }
    if (c == Collective::alltoall && spans)
      out << "; across nodes: the leaders' exchange up to MCORECOLL_ALLTOALL_NODES_MAX_BYTES ("
          << size_words(config.alltoall_nodes_max_bytes) << ")";
    if ((c == Collective::allreduce || c == Collective::reduce) && spans)
      out << "; across nodes: up to MCORECOLL_REDUCE_NODES_MAX_BYTES (" << size_words(config.reduce_nodes_max_bytes)
          << ")";
    if (bcast_ring_across_nodes(c, config, 0, spans))
      out << "; across nodes: the ring at least up to MCORECOLL_BCAST_NODES_RING_BYTES ("
          << size_words(config.bcast_nodes_ring_bytes) << ")";
    if (node_only(c) && spans) out << "; across nodes: pmpi (inside one node only in this version)";
    if (c == Collective::allgather && spans)
      out << "; across nodes: up to MCORECOLL_ALLGATHER_NODES_MAX_BYTES ("
          << size_words(config.allgather_nodes_max_bytes) << ")";
    out << "\n";
  }
  return out.str();
}

}  // namespace mcorecoll
