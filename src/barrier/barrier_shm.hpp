// The hierarchical shared-memory barrier (paper section 4.1): one gather up the node's tree
// (ranks -> their group leaders -> the node leader), the node leaders' exchange when the
// communicator spans nodes, then one release back down the same tree.
#pragma once

namespace mcorecoll {

class CommContext;
struct Config;

// The communicator's shared segment must exist (ctx.shm). Returns an MPI error code.
int barrier_shm(CommContext& ctx, const Config& config);

// The same barrier inside one node (ctx.node_count 1), carrying one bit per rank: each rank
// adds its own to its subtree's on the way up, the OR of all comes back down. Returns that OR
// on every rank: how the ranks agree on a fact each knows only of itself.
bool node_vote(CommContext& ctx, const Config& config, bool mine);

}  // namespace mcorecoll
