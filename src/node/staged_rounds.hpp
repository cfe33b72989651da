// Rounds through the staging areas (node/call_areas.hpp), the pattern under the staged
// alltoall, allgather, reductions, scans and exchange: each round, every rank writes a tile
// into one half of its staging area and posts it, the others read it and say they are done;
// the halves alternate, so that a rank can stage round k + 1 while slower ranks still read
// round k.
#pragma once

#include <cstddef>
#include <cstdint>

#include "node/call_areas.hpp"

namespace mcorecoll {

class CommContext;
class NodeShm;

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

}  // namespace mcorecoll
