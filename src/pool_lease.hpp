// A communicator's leases from its node's pool (node_pool.hpp): one for the bcast ring's cells,
// one for the alltoall staging areas. A lease is kept from one operation to the next and grows
// when an operation needs more than it holds: every node rank sees the same sizes and the same
// lease, so every one decides alike, at the same operation, that the lease must grow; the node
// leader then leases and says what it got in the communicator's lease line, and the others wait
// for that line. When the pool has no room, the leader tries the smaller size the operation
// needs, and else says so: the communicator keeps what it had (smaller tiles, fewer cells), or,
// holding nothing, the caller takes its fallback. Nothing ever waits for pool space.
//
// A lease goes back to the pool when the last node rank has let go of it: a rank lets go when
// it moves to a newer lease (all its earlier operations are over) or frees the communicator;
// the count sits in the lease's last line.
#pragma once

#include <cstdint>

#include "node_pool.hpp"

namespace mcorecoll {

class CommContext;
class Waiter;

enum class LeaseKind { ring = 0, staging = 1 };

struct Lease {
  std::uint64_t generation = 0;  // lease changes asked for so far, alike on every node rank
  std::uint64_t offset = NodePool::kNoSpace, bytes = 0;
  // ring: cells, data bytes per cell; staging: bytes per rank's area, unused
  std::uint64_t shape[2] = {0, 0};
  bool held() const { return offset != NodePool::kNoSpace; }
};

// Bytes between the starts of two ring cells of `cell_bytes` data (a flag word first).
std::uint64_t ring_stride(std::uint64_t cell_bytes);

// Collective over the communicator's node (every node rank calls it in the same operation with
// the same wishes): makes sure the lease of `kind` holds at least `want0` x `want1` (ring:
// cells x cell bytes; staging: area bytes per rank, 0). True when a lease is held afterwards
// (perhaps smaller than wished: the pool was full); its shape is in ctx.leases.
bool ensure_lease(CommContext& ctx, LeaseKind kind, std::uint64_t want0, std::uint64_t want1, Waiter& waiter);

// The same without waiting, for the non-blocking operations: `pending` while the node leader's
// answer (or, on the leader, the ring readers' acknowledgement of the last one) is not there
// yet; call again in a later step.
enum class LeaseAnswer { pending, held, none };
LeaseAnswer try_lease(CommContext& ctx, LeaseKind kind, std::uint64_t want0, std::uint64_t want1);

// This rank lets go of every lease of the communicator (it is being freed).
void drop_leases(CommContext& ctx);

// A private pool's size for a node of `node_size` ranks (no node pool): room for the largest
// ring and staging leases the settings allow, and a growing lease next to each.
std::uint64_t private_pool_bytes(int ring_cells, std::uint64_t ring_cell_bytes, std::uint64_t stage_bytes, int node_size);

}  // namespace mcorecoll
