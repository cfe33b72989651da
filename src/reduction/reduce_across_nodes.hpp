// MPI_Allreduce and MPI_Reduce on a communicator that spans nodes (of scattered ranks:
// commutative ops only; reduce_calls.cpp sends the others to PMPI). Three phases:
//  1. each node folds its ranks' contributions in rank order at its leader (ReduceRounds,
//     reduce_shm.hpp, with the node leader as root);
//  2. the leaders combine the nodes' partial results on the leaders' communicator: small ones
//     sent to every leader that folds them (up to kDirectExchangeMaxNodes nodes one message
//     per pair, leader_messages.hpp; beyond, PMPI_Allgather or PMPI_Gather to the root's node)
//     and folded in node order, so the result is the same bits on every rank and in every run;
//     larger ones (every node's partial together above kGatherFoldBytes) with the MPI
//     library's own PMPI_Allreduce or PMPI_Reduce, whose order for commutative ops is its own;
//  3. the result goes from the leader to its node through the bcast's ring (allreduce: every
//     node; reduce: the root's node, when the root is not its leader).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>

#include "reduction/element_layout.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// Every node's partial result together, in bytes of images, up to which the leaders gather
// and fold them themselves (phase 2).
constexpr std::size_t kGatherFoldBytes = 64 * 1024;

class LeaderMessages;

// Phase 2 up to kDirectExchangeMaxNodes nodes, at a leader: posts its `partial` (count x type)
// to every leader that folds (all of them, or the root's node's) and, where this node folds,
// the receives of the others' into `gathered` (node j's at j x count x extent).
void post_partials(LeaderMessages& messages, const CommContext& ctx, const char* partial, char* gathered, int count,
                   MPI_Datatype type, const ElementLayout& layout, int root_node);

// `root`: a rank of the communicator, or -1 (allreduce); `bytes`: the signature's size. The
// datatype's extent is at most kLineBytes, 128 (the smallest staging half any node can fall
// back to holds one element).
int reduce_across_nodes(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf, int count,
                        MPI_Datatype type, MPI_Op op, int root, const ElementLayout& layout,
                        std::uint64_t bytes);

}  // namespace mcorecoll
