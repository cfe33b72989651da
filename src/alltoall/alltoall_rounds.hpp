// The pieces of the staged alltoall (alltoall_shm.hpp) that the blocking and the non-blocking
// algorithms share: a round's tiles in and out of the staging areas (node/call_areas.hpp), and the node
// leaders' exchange of the tiles bound for other nodes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "node/call_areas.hpp"

namespace mcorecoll {

class CommContext;
class NodeShm;
class Waiter;
struct Config;

// One round's tiles, `len` bytes each, in half `h` of the staging areas and of the inbox. The
// halves alternate, so that a rank can stage the next round while slower ranks still read the
// last one.
struct Round {
  std::uint64_t seq;
  int h;
  std::size_t half;  // bytes in half a staging area
  std::size_t len;
  StagingAreas staging;
  // The round's tile of node rank r's staging area (r's tiles for every destination).
  const char* staged_by(int r) const { return staging.of(r) + static_cast<std::size_t>(h) * half; }
};

// The communicator's next round, of tiles of `len` bytes (a new sequence number: the half
// alternates alike on every rank, as they count alike).
Round next_round(CommContext& ctx, const StagingAreas& staging, std::uint64_t len);

// Bytes of a tile: each round moves one tile of every block through half a staging area.
std::uint64_t tile_bytes(const StagingAreas& staging, int ranks);

// A node rank that is not done yet with the round that last used `round`'s half, or -1 when
// the half is free.
int rank_using_half(const CommContext& ctx, NodeShm& shm, const Round& round);

// Copies this rank's tiles of the round (bytes `offset`.. of each outgoing block) into its
// half of its staging area and posts them.
void stage_round(CommContext& ctx, NodeShm& shm, const Round& round, const char* out,
                 std::uint64_t block, std::uint64_t offset);

// Node leader, across nodes, once every rank of the node has posted the round: the tiles for
// other nodes packed by destination node, then source node rank, then destination, into
// ctx.exchange_buffer, with the counts and displacements (bytes) of the PMPI_Alltoallv among
// the leaders. Node A sends node B |A| * |B| tiles and receives as many back: one set of
// counts and displacements serves both directions.
void pack_exchange(CommContext& ctx, const Round& round, std::vector<int>& counts, std::vector<int>& displs);

// Copies this rank's tile from node rank `r`'s staging area into the receive bytes.
void copy_from_staging(const CommContext& ctx, const Round& round, int r, char* recv,
                       std::uint64_t block, std::uint64_t offset);

// Copies this rank's tiles from other nodes out of the inbox, where tile (remote source s,
// node rank d) sits at (remote_index[s] * node_size + d) * len.
void copy_from_inbox(const CommContext& ctx, NodeShm& shm, const Round& round, char* recv,
                     std::uint64_t block, std::uint64_t offset);

}  // namespace mcorecoll
