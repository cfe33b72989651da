#include "decisions/route.hpp"

#include <algorithm>
#include <array>
#include <sstream>
#include <string>

namespace mcorecoll {
namespace {

// Why a call goes to PMPI, per collective, made once from its names: routing runs on every
// call and must not allocate.
struct Reasons {
  std::string forced_pmpi, above_given_bound, above_bound, table_pmpi;
};
const Reasons& reasons(Collective c) {
  static const std::array<Reasons, kCollectiveCount> all = [] {
    std::array<Reasons, kCollectiveCount> made;
    for (Collective k : kAllCollectives) {
      const std::string name = collective_name(k), setting = "MCORECOLL_" + setting_name(k);
      const bool by_block = k == Collective::alltoall || k == Collective::allgather;
      Reasons& r = made[static_cast<std::size_t>(k)];
      r.forced_pmpi = setting + "=pmpi";
      r.above_given_bound = name + (by_block ? " block" : " message") + " above " + setting + "_MAX_BYTES";
      r.above_bound = r.above_given_bound + " (no measured row for this node size)";
      r.table_pmpi = "the decision table gives this " + name + (by_block ? " block" : "") +
                     " size to PMPI (mcorecoll-info shows the bands)";
    }
    return made;
  }();
  return all[static_cast<std::size_t>(c)];
}

// Across nodes, in auto mode: the largest size that takes mcorecoll's path (~0: any), and why
// a larger one goes to PMPI.
struct NodesBound {
  std::uint64_t max_bytes;
  const char* reason;
};
NodesBound nodes_bound(Collective c, const Config& config) {
  switch (c) {
    case Collective::alltoall:
      return {config.alltoall_nodes_max_bytes,
              "alltoall across nodes with blocks above MCORECOLL_ALLTOALL_NODES_MAX_BYTES"};
    case Collective::allreduce:
      return {config.reduce_nodes_max_bytes, "allreduce across nodes above MCORECOLL_REDUCE_NODES_MAX_BYTES"};
    case Collective::reduce:
      return {config.reduce_nodes_max_bytes, "reduce across nodes above MCORECOLL_REDUCE_NODES_MAX_BYTES"};
    case Collective::reduce_scatter_block:  // the allreduce's composition: the whole vector
      return {config.reduce_nodes_max_bytes,
              "reduce_scatter_block across nodes above MCORECOLL_REDUCE_NODES_MAX_BYTES (the whole vector)"};
    case Collective::reduce_scatter:
      return {config.reduce_nodes_max_bytes,
              "reduce_scatter across nodes above MCORECOLL_REDUCE_NODES_MAX_BYTES (the whole vector)"};
    case Collective::scan:
      return {config.scan_nodes_max_bytes, "scan across nodes above MCORECOLL_SCAN_NODES_MAX_BYTES"};
    case Collective::exscan:
      return {config.scan_nodes_max_bytes, "exscan across nodes above MCORECOLL_SCAN_NODES_MAX_BYTES"};
    case Collective::allgather:
      return {config.allgather_nodes_max_bytes,
              "allgather across nodes with blocks above MCORECOLL_ALLGATHER_NODES_MAX_BYTES"};
    case Collective::allgatherv:  // the same phases, with blocks of their own sizes: by the largest
      return {config.allgather_nodes_max_bytes,
              "allgatherv across nodes with a block above MCORECOLL_ALLGATHER_NODES_MAX_BYTES"};
    case Collective::gather:
      return {config.gather_nodes_max_bytes, "gather across nodes with blocks above MCORECOLL_GATHER_NODES_MAX_BYTES"};
    case Collective::scatter:
      return {config.gather_nodes_max_bytes, "scatter across nodes with blocks above MCORECOLL_GATHER_NODES_MAX_BYTES"};
    case Collective::gatherv:  // the gather's phases with blocks of their own sizes: by the largest
      return {config.gather_nodes_max_bytes,
              "gatherv across nodes with a block above MCORECOLL_GATHER_NODES_MAX_BYTES"};
    case Collective::scatterv:
      return {config.gather_nodes_max_bytes,
              "scatterv across nodes with a block above MCORECOLL_GATHER_NODES_MAX_BYTES"};
    case Collective::alltoallv:
      return {config.alltoallv_nodes_max_bytes,
              "alltoallv across nodes with a block above MCORECOLL_ALLTOALLV_NODES_MAX_BYTES"};
    default:
      return {~0ull, ""};
  }
}

// Across nodes, a bcast the table or the bounds leave to PMPI takes the ring up to
// MCORECOLL_BCAST_NODES_RING_BYTES (never where the user's own bounds decide).
bool bcast_ring_across_nodes(Collective c, const Config& config, std::uint64_t bytes, bool spans_nodes) {
  return c == Collective::bcast && spans_nodes && !config.bounds_set[static_cast<int>(c)] &&
         config.bcast_nodes_ring_bytes > 0 && bytes <= config.bcast_nodes_ring_bytes;
}

// Across nodes, a bcast, allreduce, reduce, allgather (by block) or reduce-scatter from
// MCORECOLL_LANES_MIN_BYTES on takes the lanes in auto mode.
bool takes_lanes(Collective c, const Config& config, std::uint64_t bytes) {
  return lanes_path(c) != 0 && config.lanes_min_bytes > 0 && bytes >= config.lanes_min_bytes;
}

}  // namespace

bool lanes_wanted(const Config& config) {
  if (config.lanes_min_bytes > 0) return true;
  for (Collective c : kAllCollectives)
    if (lanes_path(c) && config.forced_path[static_cast<int>(c)] == lanes_path(c)) return true;
  return false;
}

Route choose_route(Collective c, const Config& config, std::uint64_t bytes, bool spans_nodes,
                   const TableRow* row, bool lanes) {
  const int i = static_cast<int>(c);
  if (config.disable) return {0, "MCORECOLL_DISABLE is set"};
  const int forced = config.forced_path[i];
  if (forced == 0) return {0, reasons(c).forced_pmpi.c_str()};
  if (forced > 0) return {forced, ""};
  if (c == Collective::barrier) return {1, ""};
  if (spans_nodes) {
    if (lanes && takes_lanes(c, config, bytes)) return {lanes_path(c), ""};
    const NodesBound bound = nodes_bound(c, config);
    if (bytes > bound.max_bytes) return {0, bound.reason};
  }
  if (row && !config.bounds_set[i]) {
    int path = band_path(row->bands, bytes);
    // Across nodes the leaders exchange staged tiles: no single copy.
    if (c == Collective::alltoall && spans_nodes && path == kAlltoallCma) path = kAlltoallStaged;
    if (path == 0 && bcast_ring_across_nodes(c, config, bytes, spans_nodes)) path = kBcastRing;
    return {path, path == 0 ? reasons(c).table_pmpi.c_str() : ""};
  }
  if (bytes > config.max_bytes[i])
    return bcast_ring_across_nodes(c, config, bytes, spans_nodes)
               ? Route{kBcastRing, ""}
               : Route{0, (config.bounds_set[i] ? reasons(c).above_given_bound : reasons(c).above_bound).c_str()};
  if (c == Collective::bcast && bytes >= config.bcast_cma_min_bytes) return {kBcastCma, ""};
  if (c == Collective::alltoall && !spans_nodes && bytes >= config.alltoall_cma_min_bytes)
    return {kAlltoallCma, ""};
  return {1, ""};
}

std::uint64_t pmpi_below(Collective c, const Config& config, bool spans_nodes, const TableRow* row) {
  const int forced = config.forced_path[static_cast<int>(c)];
  if (config.disable || forced == 0) return kEverySize;
  if (forced > 0) return 0;
  if (c == Collective::barrier) return 0;
  const std::vector<Band> bands = auto_bands(c, config, spans_nodes, row);
  // Sizes past the last band go to PMPI (auto_bands()), as do those of leading PMPI bands.
  std::uint64_t below = 0, answer = kEverySize;
  for (const Band& b : bands) {
    if (b.path != kPmpiPath) {
      answer = below;
      break;
    }
    if (b.max_bytes == kEverySize) break;
    below = b.max_bytes + 1;
  }
  // Across nodes, sizes above the bound (MCORECOLL_<X>_NODES_MAX_BYTES) go to PMPI because of
  // the bound, not because a row's first band does: learning in the run tries the composition
  // there (entry/learning.hpp), so they are decided in full.
  const std::uint64_t nodes_max = nodes_bound(c, config).max_bytes;
  if (spans_nodes && config.learn && !node_only(c) && nodes_max != ~0ull) answer = std::min(answer, nodes_max + 1);
  return answer;
}

std::vector<Band> auto_bands(Collective c, const Config& config, bool spans_nodes, const TableRow* row) {
  const int i = static_cast<int>(c);
  std::vector<Band> bands;
  if (row && !config.bounds_set[i]) {
    bands = row->bands;
    if (c == Collective::alltoall && spans_nodes) {
      for (Band& b : bands)
        if (b.path == kAlltoallCma) b.path = kAlltoallStaged;
    }
  } else {
    const std::uint64_t max = config.max_bytes[i];
    const std::uint64_t cma_min = c == Collective::bcast                      ? config.bcast_cma_min_bytes
                                  : c == Collective::alltoall && !spans_nodes ? config.alltoall_cma_min_bytes
                                                                              : ~0ull;
    if (cma_min > 0) bands.push_back({std::min(max, cma_min - 1), 1});
    if (cma_min <= max) bands.push_back({max, c == Collective::bcast ? kBcastCma : kAlltoallCma});
  }
  const std::uint64_t nodes_max = nodes_bound(c, config).max_bytes;
  if (spans_nodes && nodes_max != ~0ull) {  // PMPI above the bound across nodes
    std::vector<Band> capped;
    for (Band b : bands) {
      if (!capped.empty() && capped.back().max_bytes >= nodes_max) break;
      b.max_bytes = std::min(b.max_bytes, nodes_max);
      capped.push_back(b);
    }
    bands = capped;
  }
  if (spans_nodes && takes_lanes(c, config, ~0ull)) {  // the lanes from their bound on
    const std::uint64_t below = config.lanes_min_bytes - 1;
    std::vector<Band> under;
    for (Band b : bands) {
      if (!under.empty() && under.back().max_bytes >= below) break;
      b.max_bytes = std::min(b.max_bytes, below);
      under.push_back(b);
    }
    if (under.empty() || under.back().max_bytes < below) under.push_back({below, 0});
    under.push_back({~0ull, lanes_path(c)});
    bands = under;
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
        add(std::min(b.max_bytes, ring), kBcastRing);
        if (b.max_bytes > ring) add(b.max_bytes, 0);
      } else {
        add(b.max_bytes, b.path);
      }
      from = b.max_bytes + 1;
      if (b.max_bytes == ~0ull) break;
    }
    if (bands.empty() || bands.back().max_bytes < ring) add(ring, kBcastRing);
    bands = widened;
  }
  return bands;
}

namespace {

const char* algorithm_words(Collective c, int path) {
  if (path == 0) return "pmpi";
  if (c == Collective::barrier)
    return path == kBarrierPoll   ? "poll (every rank polls every other's arrival)"
           : path == kBarrierTree ? "tree (a gather up the node's tree, a release down it)"
                                  : "shm (inside a node the node's choice: poll or tree; across nodes the tree and "
                                    "the leaders' exchange)";
  if (c == Collective::bcast)
    return path == kBcastRing  ? "ring (the ring of shared cells; across nodes after the leaders' bcast)"
           : path == kBcastCma ? "cma (single copy, Cross Memory Attach)"
                               : "lanes (the root's node's ring, the MPI library's bcast of a slice on every lane at once, node allgather)";
  if ((c == Collective::allreduce || c == Collective::reduce) && path == kReductionLanes)
    return c == Collective::allreduce
               ? "lanes (node reduce-scatter, the MPI library's allreduce on every lane at once, node allgather)"
               : "lanes (node reduce-scatter, the MPI library's reduce on every lane at once, the root's node's allgather)";
  if (c == Collective::allreduce || c == Collective::reduce)
    return path == kReductionLines    ? "lines (every rank's record line folded in rank order)"
           : path == kReductionTree   ? "tree (the record lines folded over a tree of consecutive ranks)"
           : path == kReductionFold   ? "fold (staged rounds folded whole in rank order)"
           : path == kReductionSlices ? "slices (staged rounds reduce-scattered by slices in rank order, then gathered)"
                                      : "shm (inside a node the node's choice: lines or tree, then fold, then slices; "
                                        "across nodes the leaders' composition)";
  if (c == Collective::allgather)
    return path == kAllgatherLanes    ? "lanes (the MPI library's allgather on every lane at once, node gathers)"
           : path == kAllgatherLines  ? "lines (every rank's block on its record line, every line read by all)"
           : path == kAllgatherGroups ? "groups (the record lines by groups, each leader's line of its members' blocks)"
           : path == kAllgatherStaged ? "staged (the staging areas)"
                                      : "shm (inside a node the node's choice: lines or groups, then staged; "
                                        "across nodes the leaders' exchange)";
  if (c == Collective::reduce_scatter_block || c == Collective::reduce_scatter)
    return path == kReduceScatterLanes
               ? "lanes (node reduce-scatter by lanes, the MPI library's reduce-scatter on every lane at once)"
               : "shm (the staged allreduce, combined in rank order)";
  if (c == Collective::scan || c == Collective::exscan)
    return path == kScanLines    ? "lines (the prefix tree on the record lines, in rank order)"
           : path == kScanStaged ? "staged (the prefix tree through the staging areas, in rank order)"
                                 : "shm (inside a node the node's choice: lines, then staged; each prefix folded in "
                                   "rank order)";
  if (node_only(c)) return "shm (staging)";
  return path == kAlltoallStaged ? "staged (the staging areas; across nodes the leaders' exchange of tiles)"
                                 : "cma (single copy, Cross Memory Attach)";
}

// A band of `shm` on one node split where the node's choice changes, so that mcorecoll-info
// names the algorithm each size takes: the choice can change only at half a line, a line and
// the slices' least sizes (node_algorithms.cpp). The reductions' choice goes by the image, which
// is the signature for contiguous types.
std::vector<Band> node_choice_bands(Collective c, std::uint64_t from, const Band& b, int node_size,
                                    const Config& config) {
  if (b.path != kNodeChoice || !has_node_algorithms(c)) return {b};
  const std::uint64_t n = static_cast<std::uint64_t>(node_size);
  std::vector<std::uint64_t> edges = {kReduceLineBytes / 2, kReduceLineBytes, n * kSliceMinBytes - 1,
                                      n * kLineBytes - 1};
  std::sort(edges.begin(), edges.end());
  std::vector<Band> parts;
  for (std::uint64_t edge : edges) {
    const int here = node_choice(c, edge, node_size, config);
    if (edge >= from && edge < b.max_bytes && here != node_choice(c, edge + 1, node_size, config) &&
        (parts.empty() || parts.back().max_bytes < edge))
      parts.push_back({edge, here});
  }
  parts.push_back({b.max_bytes, node_choice(c, b.max_bytes, node_size, config)});
  return parts;
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
      const int path = spans ? kBarrierShm : node_choice(c, 0, view.node_size, config);
      out << algorithm_words(c, path) << " ("
          << (spans ? "across nodes" : std::to_string(view.node_size) + " ranks on one node")
          << "; poll on one node up to "
          << config.barrier_all_poll_max << " ranks, MCORECOLL_BARRIER_ALL_POLL_MAX)\n";
      continue;
    }
    const TableRow* row = view.table_rows[static_cast<std::size_t>(i)];
    std::uint64_t from = 0;
    for (const Band& band : auto_bands(c, config, spans, row)) {
      const std::vector<Band> parts = spans ? std::vector<Band>{band}
                                            : node_choice_bands(c, from, band, view.node_size, config);
      for (const Band& b : parts) {
        out << size_words(from) << "-" << size_words(b.max_bytes) << " " << algorithm_words(c, b.path) << ", ";
        from = b.max_bytes + 1;
      }
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
    if ((c == Collective::scan || c == Collective::exscan) && spans)
      out << "; across nodes: up to MCORECOLL_SCAN_NODES_MAX_BYTES (" << size_words(config.scan_nodes_max_bytes)
          << "), where each node holds consecutive ranks";
    if (c == Collective::allreduce || c == Collective::reduce) {
      const bool tree = view.node_size > config.reduce_flat_max;
      out << "; calls of up to 248 B: " << (tree ? "a tree of " + std::to_string(config.reduce_tree_radix) + "s"
                                                : std::string("every rank's record folded"))
          << " on " << view.node_size << " ranks (tree above MCORECOLL_REDUCE_FLAT_MAX, " << config.reduce_flat_max
          << ")";
    }
    if (bcast_ring_across_nodes(c, config, 0, spans))
      out << "; across nodes: the ring at least up to MCORECOLL_BCAST_NODES_RING_BYTES ("
          << size_words(config.bcast_nodes_ring_bytes) << ")";
    if (c == Collective::gatherv || c == Collective::scatterv) {
      if (spans)
        out << "; across nodes, the blocking and persistent forms after a round that agrees on the largest "
               "block: up to MCORECOLL_GATHER_NODES_MAX_BYTES (" << size_words(config.gather_nodes_max_bytes) << ")";
    } else if (c == Collective::alltoallv) {
      if (spans)
        out << "; across nodes, the blocking and persistent forms after a round that agrees on the largest "
               "block: up to MCORECOLL_ALLTOALLV_NODES_MAX_BYTES (" << size_words(config.alltoallv_nodes_max_bytes)
            << ")";
    } else if (node_only(c) && spans) {
      out << "; across nodes: pmpi (inside one node only in this version)";
    }
    if (c == Collective::allgather && spans)
      out << "; across nodes: up to MCORECOLL_ALLGATHER_NODES_MAX_BYTES ("
          << size_words(config.allgather_nodes_max_bytes) << ")";
    if ((c == Collective::gather || c == Collective::scatter) && spans)
      out << "; across nodes: blocks up to MCORECOLL_GATHER_NODES_MAX_BYTES (" << size_words(config.gather_nodes_max_bytes)
          << ")";
    out << "\n";
  }
  return out.str();
}

}  // namespace mcorecoll
