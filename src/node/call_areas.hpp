// The shared areas one call moves its data through, asked for here, once, at the start of the
// call's node phase: the bcast's ring cells and the alltoall's staging areas. The algorithms
// get areas and never see where they come from: the communicator's leases from the node's
// pool (pool_lease.hpp, lease_protocol.hpp), grown when a call needs more than is held, or,
// while the pool has no room, the segment's own small areas (node_shm.hpp), never PMPI.
//
// Every node rank asks in the same operation with the same size (a lease may change, and the
// node leader answers for all), so a try_ function may answer "not yet": a non-blocking
// operation asks again at its next step; the blocking forms wait.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace mcorecoll {

class CommContext;
class Waiter;
struct Config;

// Where ring chunk `g` lives: its flag (the chunk number plus one), then its data.
struct RingSpot {
  std::atomic<std::uint64_t>* flag;
  char* data;
};

// The cells a bcast goes through, `window` of them, chunk g in cell g mod window.
struct RingCells {
  char* base;
  std::uint64_t stride, cell_bytes, window;
  RingSpot spot(std::uint64_t g) const {
    char* at = base + (g % window) * stride;
    return {reinterpret_cast<std::atomic<std::uint64_t>*>(at), at + 8};
  }
  std::uint64_t chunks(std::uint64_t size) const {
    return size <= cell_bytes ? 1 : (size + cell_bytes - 1) / cell_bytes;  // most messages: one
  }
};

// The ring for a message of `size` bytes: one that fits a line goes to the communicator's
// one-line slots, side by side (a reader running through them is helped by the prefetcher); a
// larger one to cells leased from the pool, or through the slots in line-sized chunks when
// the pool is full. False: not yet (ask again).
bool try_ring_cells(CommContext& ctx, const Config& config, std::uint64_t size, RingCells* cells);
RingCells ring_cells(CommContext& ctx, const Config& config, Waiter& waiter, std::uint64_t size);

// The node's staging areas, one of `area` bytes per node rank, side by side.
struct StagingAreas {
  char* base;
  std::size_t area;
  char* of(int node_rank) const { return base + static_cast<std::size_t>(node_rank) * area; }
};

// The staging areas of an alltoall of blocks of `block` bytes (> 0): inside one node, leased
// from the pool and grown as the blocks need, up to MCORECOLL_ALLTOALL_STAGE_BYTES, or the
// segment's fallback staging while the pool has no room; across nodes, the segment's fixed
// staging (the leaders' exchange needs tiles alike on every node). False: not yet.
bool try_staging_areas(CommContext& ctx, const Config& config, std::uint64_t block, StagingAreas* areas);
StagingAreas staging_areas(CommContext& ctx, const Config& config, Waiter& waiter, std::uint64_t block);
// The same leased areas for an exchange that stays inside the node (the allgather's node
// phase), also on a communicator that spans nodes: its tiles need not be alike across nodes,
// and the segment's fixed staging exists only where the alltoall's leaders' exchange may run.
bool try_node_staging_areas(CommContext& ctx, const Config& config, std::uint64_t block, StagingAreas* areas);
// Allreduce and reduce, whose shared-memory part stays inside the node: areas of their own
// lease (so that neither they nor the alltoall run with the other's area size), grown up to
// MCORECOLL_REDUCE_STAGE_BYTES, whether or not the communicator spans nodes.
bool try_reduce_staging_areas(CommContext& ctx, const Config& config, std::uint64_t block, StagingAreas* areas);

}  // namespace mcorecoll
