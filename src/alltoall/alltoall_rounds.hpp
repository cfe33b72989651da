// The pieces of the staged alltoall (alltoall_shm.hpp) that the blocking and the non-blocking
// algorithms share: a round's tiles in and out of the staging areas (the rounds themselves:
// node/staged_rounds.hpp), and the node leaders' exchange of the tiles bound for other nodes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "node/staged_rounds.hpp"

namespace mcorecoll {

class CommContext;
class NodeShm;
class Waiter;
struct Config;

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
