// MPI_Reduce_scatter_block and MPI_Reduce_scatter inside one node, through the reductions'
// machinery (reduce_shm.hpp: combined in rank order, the same bits on every rank and in every
// run). A vector larger than a record line goes through the staged rounds, in which each rank
// folds only its own block of every rank's image and delivers it: it reads (n - 1) x its block,
// its share, where the allreduce's slices read twice the vector. A vector of one line goes
// through the small allreduce (its tree beyond MCORECOLL_REDUCE_FLAT_MAX ranks, whose
// bracketing it keeps) into scratch, and this rank takes its block. Across nodes, the
// allreduce's composition (reduce_across_nodes.hpp: each node folded in rank order, the nodes'
// partials in node order, one message a leader pair for small vectors) into scratch, and this
// rank takes its block: what moves between nodes is the node's partial of the whole vector, so
// it serves vectors small enough that a network latency, not their bytes, is the cost
// (MCORECOLL_REDUCE_NODES_MAX_BYTES).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "reduction/element_layout.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// Whether a vector of `total` elements with layout `whole` goes by this rank's block through the
// staged rounds (larger than a record line), else through the small allreduce: every form alike,
// so that they give the same bits.
bool reduce_scatter_by_block(const ElementLayout& whole, int total);

// `input`: the whole vector of `total` elements (the send buffer, or the receive buffer with
// MPI_IN_PLACE); this rank's block is `count` elements from element `first`. `whole` and
// `block`: element_layout()'s answers for `total` and `count` elements.
int reduce_scatter_shm(CommContext& ctx, const Config& config, const void* input, void* recvbuf, int total,
                       int first, int count, MPI_Datatype type, MPI_Op op, const ElementLayout& whole,
                       const ElementLayout& block);

// The same across nodes; `bytes`: the whole vector's signature size.
int reduce_scatter_across_nodes(CommContext& ctx, const Config& config, const void* input, void* recvbuf, int total,
                                int first, int count, MPI_Datatype type, MPI_Op op, const ElementLayout& whole,
                                const ElementLayout& block, std::uint64_t bytes);

}  // namespace mcorecoll
