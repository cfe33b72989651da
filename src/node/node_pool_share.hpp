// The node's pool (node_pool.hpp) shared by the processes of a node: made by the first
// communicator set-up that needs it, opened by the others through their leader's descriptor.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <string>

#include "node/node_pool.hpp"
#include "node/shm_object.hpp"

namespace mcorecoll {

// A node leader's part: the address of the first pool this process maps, made now (of
// `max_bytes`) if it maps none yet; with `error` set when it cannot be made. Its node's other
// ranks map it by pool_at(), once the address reached them (node_setup.cpp).
ShmAddress own_pool_address(std::uint64_t max_bytes);
// The first pool this process maps, made by nobody now: error ENOENT where it maps none.
ShmAddress first_pool_address();
// The pool `a` names: one this process maps already, or mapped now; null with *error. Pools
// stay mapped for the life of the process.
NodePool* pool_at(const ShmAddress& a, int* error);

// This process's bell (progress_helper.hpp): the one it holds in the first pool it mapped, or
// null when it maps none. Peers ring it through communicators of that pool; own_bell_slot()
// says which slot that is in `pool`, or -1 (another pool: its peers cannot ring this process).
std::atomic<std::uint32_t>* own_bell();
int own_bell_slot(const NodePool* pool);

}  // namespace mcorecoll
