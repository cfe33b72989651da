// How the ranks of one node agree on a communicator's lease from the node's pool (node_pool.hpp),
// without MPI, so that it is unit-tested on its own (test/unit/test_lease_protocol.cpp).
//
// A communicator holds two leases: the bcast ring's cells and the alltoall staging areas. A
// lease is kept from one operation to the next and changes only when an operation needs more
// than it holds. Every node rank sees the same sizes in the same operations and holds the same
// lease, so every one decides alike, in the same operation, that the lease must change: that
// change is the lease's next generation. The node leader then asks the pool and writes what it
// got into the communicator's lease line, stamped with the generation; each other rank waits
// for exactly that stamp, reads the line and acknowledges the generation in a line of its own.
//
// The leader rewrites the line only once every rank has acknowledged the last generation. That
// is the invariant every rank's view rests on: a rank that falls behind by whole operations
// (a bcast reader that the source does not wait for; a rank whose alltoall of count 0 moved
// nothing and so waited for no one) can never read a line meant for a later generation. It
// then holds, after every change, the same lease as every other rank.
//
// When the pool has no room for what the operation would like (the larger of the lease held
// and the operation's wish), the leader tries what the operation needs, which may be smaller
// than the lease held (the lease shrinks); failing that, the pool is exhausted for this
// communicator and every rank keeps what it holds; holding nothing, every rank falls back to
// the area the communicator's segment always has (the bcast slots, the fallback staging). No
// answer ever waits for pool space.
//
// A lease goes back to the pool when the last node rank lets go of it: when it moves to a newer
// lease (its earlier operations on the old one are over) or its communicator is freed. The
// count of holders sits in the lease's last line.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "node/node_pool.hpp"

namespace mcorecoll {

// The bcast's ring cells; the alltoall's (and allgather's) staging areas; the reductions'
// staging areas, apart so that neither collective runs with the other's area size.
enum class LeaseKind { ring = 0, staging = 1, reduce_staging = 2 };
constexpr int kLeaseKinds = 3;

// Written by the node leader when a lease of the communicator changes.
struct LeaseLine {
  std::atomic<std::uint64_t> generation;
  std::uint64_t offset;    // in the pool, or NodePool::kNoSpace: no new lease this generation
  std::uint64_t bytes;
  std::uint64_t shape[2];  // what the lease holds (see Lease)
};

// One rank's view of a lease.
struct Lease {
  std::uint64_t generation = 0;  // changes asked for so far, alike on every node rank
  std::uint64_t offset = NodePool::kNoSpace, bytes = 0;
  // ring: cells, data bytes per cell; staging: bytes per rank's area, unused
  std::uint64_t shape[2] = {0, 0};
  bool held() const { return offset != NodePool::kNoSpace; }
  bool operator==(const Lease& o) const {
    return generation == o.generation && offset == o.offset && bytes == o.bytes &&
           shape[0] == o.shape[0] && shape[1] == o.shape[1];
  }
};

// pending: the leader's answer (or, on the leader, every rank's acknowledgement of the last
// one) is not there yet, ask again later; held: a lease at least as large as needed is held
// (perhaps smaller than wished); none: nothing is held and the pool has no room.
enum class LeaseAnswer { pending, held, none };

// Where one lease of one communicator is agreed on a node: the pool, the leader's line, every
// rank's acknowledgement (a word of node rank r's own line at ack_base + r * ack_stride), and
// the NUMA domain (OS index, -1 unknown) of every node rank, for placing the lease's parts.
struct LeaseParty {
  NodePool* pool;
  LeaseLine* line;
  char* ack_base;
  std::size_t ack_stride;
  int node_rank, node_size;
  LeaseKind kind;
  const std::vector<int>* numa_os;

  std::atomic<std::uint64_t>& ack(int r) const {
    return *reinterpret_cast<std::atomic<std::uint64_t>*>(ack_base + static_cast<std::size_t>(r) * ack_stride);
  }
};

// Every node rank calls this in the same operation with the same wishes, until it is no longer
// pending: makes sure `current` holds at least `want0` x `want1` (ring: cells x bytes per cell;
// staging: area bytes per rank, 0). Never waits. Pending, *waits_for (if given) is the node
// rank whose step the answer waits for.
LeaseAnswer ask_lease(const LeaseParty& party, Lease& current, std::uint64_t want0, std::uint64_t want1,
                      int* waits_for = nullptr);

// This rank lets go of `lease` (the pool gets it back from the last holder).
void let_go(NodePool& pool, Lease& lease);

// Bytes between the starts of two ring cells of `cell_bytes` data (a flag word first).
std::uint64_t ring_stride(std::uint64_t cell_bytes);

// A private pool's size for a node of `node_size` ranks (no node pool): room for the largest
// ring and staging leases the settings allow, and a growing lease next to each.
std::uint64_t private_pool_bytes(int ring_cells, std::uint64_t ring_cell_bytes, std::uint64_t stage_bytes, int node_size);

}  // namespace mcorecoll
