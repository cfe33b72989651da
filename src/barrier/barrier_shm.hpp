// The hierarchical shared-memory barrier (paper section 4.1): one gather up the node's tree
// (ranks -> their group leaders -> the node leader), PMPI_Barrier among node leaders when the
// communicator spans nodes, then one release back down the same tree.
#pragma once

namespace mcorecoll {

class CommContext;
struct Config;

// The communicator's shared segment must exist (ctx.shm). Returns an MPI error code.
int barrier_shm(CommContext& ctx, const Config& config);

}  // namespace mcorecoll
