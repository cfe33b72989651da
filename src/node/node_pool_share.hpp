// The node's pool (node_pool.hpp) shared by the processes of a node: made by the first
// communicator set-up that needs it, opened by the others through their leader's descriptor.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <string>

#include "node/node_pool.hpp"

namespace mcorecoll {

// Collective over `comm`: the node pool that the node leader (communicator rank `leader`) maps,
// made by it (`max_bytes`) if it maps none yet, and mapped by every rank of its node; null on
// every rank of the communicator, with `why`, if any rank cannot have it. Pools stay mapped
// for the life of the process.
NodePool* share_node_pool(MPI_Comm comm, int leader, std::uint64_t max_bytes, std::string* why);

// This process's bell (progress_helper.hpp): the one it holds in the first pool it mapped, or
// null when it maps none. Peers ring it through communicators of that pool; own_bell_slot()
// says which slot that is in `pool`, or -1 (another pool: its peers cannot ring this process).
std::atomic<std::uint32_t>* own_bell();
int own_bell_slot(const NodePool* pool);

}  // namespace mcorecoll
