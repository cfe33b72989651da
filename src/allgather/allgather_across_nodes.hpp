// MPI_Allgather on a communicator that spans nodes (the blocking form; the others:
// iallgather_across_nodes.hpp). Three phases:
//  1. inside each node, every rank gets its node's blocks (AllgatherRounds, allgather_shm.hpp);
//  2. the node leaders exchange their nodes' blocks on the leaders' communicator, one message
//     per pair of leaders up to kDirectExchangeMaxNodes nodes (leader_messages.hpp), beyond
//     with PMPI_Allgatherv: one message per node instead of one per rank;
//  3. each leader hands every node's blocks to its node through the bcast's ring, and each rank
//     puts them in rank order (nodes of scattered ranks: a block at a time).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace mcorecoll {

class CommContext;
struct Config;

class LeaderMessages;

// Where the blocks lie in (node, node rank) order, the order of the three phases. Alike on
// every rank: the node sizes and the block (every rank's receive side gives it).
struct NodeOrder {
  NodeOrder(const CommContext& ctx, std::uint64_t block);
  std::vector<int> first;           // node k's blocks start at block first[k] (k = 0..nodes)
  std::vector<int> counts, displs;  // node k's bytes and where they start (below INT_MAX in all)
  // Each rank's block from `all` (this order) to its place in `recv` (rank order).
  void place_by_rank(const CommContext& ctx, const char* all, char* recv, std::uint64_t block) const;
};

// Phase 2 with few nodes (leader_messages.hpp): posts this leader's blocks to every other
// leader and the receives of theirs, in `all`.
void post_node_blocks(LeaderMessages& messages, const CommContext& ctx, char* all, const NodeOrder& order);

// `block`: the signature bytes each rank contributes (> 0 or the call returns at once).
int allgather_across_nodes(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount,
                           MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                           std::uint64_t block);

}  // namespace mcorecoll
