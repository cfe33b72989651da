#include "decisions/node_algorithms.hpp"

namespace mcorecoll {
namespace {

bool reduction(Collective c) { return c == Collective::allreduce || c == Collective::reduce; }
bool scan(Collective c) { return c == Collective::scan || c == Collective::exscan; }

// A line's worth of the groups' first call: LineGroups::of() (node/line_tree.hpp) makes groups
// of two or more only on a node of four ranks or more, for blocks of at most half a line.
bool groups_form(std::uint64_t block, int node_size) { return node_size >= 4 && 2 * block <= kReduceLineBytes; }

}  // namespace

bool has_node_algorithms(Collective c) {
  return reduction(c) || scan(c) || c == Collective::allgather || c == Collective::barrier;
}

bool node_algorithm(Collective c, int path) {
  if (reduction(c)) return path >= kReductionLines && path <= kReductionSlices;
  if (c == Collective::allgather) return path >= kAllgatherLines && path <= kAllgatherStaged;
  if (c == Collective::barrier) return path == kBarrierPoll || path == kBarrierTree;
  if (scan(c)) return path == kScanLines || path == kScanStaged;
  return false;
}

bool node_accepts(Collective c, int path, std::uint64_t bytes, int node_size) {
  if (!node_algorithm(c, path)) return false;
  if (reduction(c)) return (path != kReductionLines && path != kReductionTree) || bytes <= kReduceLineBytes;
  if (c == Collective::allgather)
    return path == kAllgatherStaged ||
           (path == kAllgatherLines ? bytes <= kReduceLineBytes : groups_form(bytes, node_size));
  if (scan(c)) return path == kScanStaged || bytes <= kReduceLineBytes;
  return true;  // the barrier's both
}

int node_choice(Collective c, std::uint64_t bytes, int node_size, const Config& config) {
  if (reduction(c)) {
    const bool flat = node_size <= config.reduce_flat_max;
    if (bytes <= kReduceLineBytes) return flat ? kReductionLines : kReductionTree;
    // On a node past the flat fold, folding everything reads n contributions for one: a slice
    // of a line already pays.
    const std::uint64_t slice_min = flat ? kSliceMinBytes : kLineBytes;
    return bytes >= static_cast<std::uint64_t>(node_size) * slice_min ? kReductionSlices : kReductionFold;
  }
  if (c == Collective::allgather) {
    if (bytes > kReduceLineBytes) return kAllgatherStaged;
    return node_size > config.allgather_flat_max && groups_form(bytes, node_size) ? kAllgatherGroups : kAllgatherLines;
  }
  if (c == Collective::barrier) return node_size <= config.barrier_all_poll_max ? kBarrierPoll : kBarrierTree;
  if (scan(c)) return bytes <= kReduceLineBytes ? kScanLines : kScanStaged;
  return kNodeChoice;
}

int node_algorithm_taken(Collective c, int path, std::uint64_t bytes, int node_size, const Config& config) {
  return node_accepts(c, path, bytes, node_size) ? path : node_choice(c, bytes, node_size, config);
}

int node_algorithm_sibling(Collective c, int path, std::uint64_t bytes, int node_size) {
  int other = -1;
  if (reduction(c))
    other = path == kReductionLines ? kReductionTree
            : path == kReductionTree ? kReductionLines
            : path == kReductionFold ? kReductionSlices
            : path == kReductionSlices ? kReductionFold
                                       : -1;
  else if (c == Collective::allgather)
    other = path == kAllgatherLines ? kAllgatherGroups : path == kAllgatherGroups ? kAllgatherLines : -1;
  else if (c == Collective::barrier)
    other = path == kBarrierPoll ? kBarrierTree : path == kBarrierTree ? kBarrierPoll : -1;
  else if (scan(c))
    other = path == kScanLines ? kScanStaged : path == kScanStaged ? kScanLines : -1;
  return other >= 0 && node_accepts(c, other, bytes, node_size) ? other : -1;
}

}  // namespace mcorecoll
