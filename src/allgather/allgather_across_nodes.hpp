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

// Phase 2 with few nodes (leader_messages.hpp): posts this leader's blocks (node k's lie at
// displs[k], counts[k] bytes, in `all`) to every other leader and their receives.
void post_node_blocks(LeaderMessages& messages, const CommContext& ctx, char* all, const std::vector<int>& counts,
                      const std::vector<int>& displs);

// `block`: the signature bytes each rank contributes (> 0 or the call returns at once).
int allgather_across_nodes(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount,
                           MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                           std::uint64_t block);

}  // namespace mcorecoll
