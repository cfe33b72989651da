// The reductions' scratch on a communicator, kept from one call to the next (no allocation per
// call; collectives on one communicator never run at once), in the context's kept states.
#pragma once

#include <vector>

#include "node/comm_context.hpp"

namespace mcorecoll {

struct ReductionRooms {
  std::vector<char> running;  // the running result of a round
  std::vector<char> packed;   // a result packed for delivering it (fold.hpp's deliver())
  std::vector<char> reduce_scatter_result;  // its whole result
  std::vector<char> scan_parts, scan_prefix;  // a staged scan's round: the blocks before a rank's, its result
  // Across nodes, at node leaders: the node's partial result where the receive buffer is not
  // the leader's to write, and every node's, gathered.
  std::vector<char> node_partial, nodes_gathered;
  // Across nodes, a scan's prefix among its node's ranks, before the nodes before are folded in.
  std::vector<char> scan_result;
  // The tree of small reductions: a leader's partial, folded from one room into the other.
  std::vector<char> tree[2];
};

inline ReductionRooms& reduction_rooms(CommContext& ctx) { return ctx.kept.get<ReductionRooms>(); }

}  // namespace mcorecoll
