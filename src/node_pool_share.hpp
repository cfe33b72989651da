// The node's pool (node_pool.hpp) shared by the processes of a node: made by the first
// communicator set-up that needs it, opened by the others through their leader's descriptor.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

#include "node_pool.hpp"

namespace mcorecoll {

// Collective over `comm`: the node pool that the node leader (communicator rank `leader`) maps,
// made by it (`max_bytes`) if it maps none yet, and mapped by every rank of its node; null on
// every rank of the communicator, with `why`, if any rank cannot have it. Pools stay mapped
// for the life of the process.
NodePool* share_node_pool(MPI_Comm comm, int leader, std::uint64_t max_bytes, std::string* why);

}  // namespace mcorecoll
