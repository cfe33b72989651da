// The bcast ring: the shared cells that copy-in/copy-out moves a message through, chunk by
// chunk, shared by the blocking bcast (bcast_shm.cpp) and the non-blocking one (ibcast_shm.cpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "reader_schedule.hpp"

namespace mcorecoll {

class CommContext;
class NodeShm;
class Waiter;
struct Config;

// Where ring chunk `g` lives: its flag (the chunk number plus one), then its data.
struct RingSpot {
  std::atomic<std::uint64_t>* flag;
  char* data;
};

// The cells a message goes through, `window` of them: a message that fits one line goes to the
// communicator's one-line slots, side by side, so that a reader running through them is helped
// by the prefetcher; a larger one to the cells the communicator leases from the node's pool
// (pool_lease.hpp), or, when the pool has no room, through the slots in line-sized chunks.
struct RingCells {
  char* base;
  std::uint64_t stride, cell_bytes, window;
  RingSpot spot(std::uint64_t g) const {
    char* at = base + (g % window) * stride;
    return {reinterpret_cast<std::atomic<std::uint64_t>*>(at), at + 8};
  }
  std::uint64_t chunks(std::uint64_t size) const { return (size + cell_bytes - 1) / cell_bytes; }
};

// The cells for a message of `size` bytes. Collective over the node when the ring's lease must
// grow (every node rank asks in the same operation with the same size): `waiter` waits for the
// node leader's answer.
RingCells cells_for(CommContext& ctx, const Config& config, Waiter& waiter, std::uint64_t size);
// The same without waiting: false while the lease's answer is not there yet (call again).
bool try_cells_for(CommContext& ctx, const Config& config, std::uint64_t size, RingCells* cells);

// The leader of each node rank's group at the node's coarsest level (sockets; else NUMA
// domains or caches); empty when the node has no such level.
const std::vector<int>& coarsest_leaders(const CommContext& ctx);

// The groups of the readers of `source` (reader_schedule.hpp), from MCORECOLL_BCAST_READERS.
ReaderGroups groups_of_readers(const CommContext& ctx, const Config& config, int source);

// Single copy: the source posts where its `size` bytes are, for operation `seq`; each reader,
// once it has seen the post, pulls them in pieces, one piece per reader group, in the rotating
// schedule (reader_schedule.hpp). Pieces are large: every process_vm_readv pins pages and
// costs a system call. A refused read stops the job (single_copy.hpp).
void post_single_copy(NodeShm& shm, int source, const char* data, std::uint64_t size, std::uint64_t seq);
void pull_single_copy(CommContext& ctx, const Config& config, int source, char* data, std::uint64_t size);

}  // namespace mcorecoll
