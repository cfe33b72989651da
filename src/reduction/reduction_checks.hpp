// What the staged reductions (allreduce, reduce, reduce-scatter, scans) cannot take: equal on
// every rank, as the standard has every rank pass the same count, datatype and op.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "reduction/element_layout.hpp"

namespace mcorecoll {

bool predefined_op(MPI_Op op);
bool commutative(MPI_Op op);

// Why a staged reduction of `count` elements of `type` (`bytes` of signature) with `op` goes to
// PMPI, or nullptr when it need not; *layout gets the datatype's element layout.
const char* staged_reduction_refusal(MPI_Op op, MPI_Datatype type, int count, std::uint64_t bytes,
                                     ElementLayout* layout);

class CommContext;

// Why the reductions' composition across nodes (reduce_across_nodes.hpp: the allreduce, reduce
// and reduce-scatters of `ctx` spanning nodes) goes to PMPI, or nullptr: on nodes of scattered
// ranks each node folded, then the nodes in order, is not the rank order, which only a
// commutative op may ignore (the result is still the same bits on every rank and run for a
// placement); and every node must fold alike, so an element must fit the smallest staging half
// any node can fall back to, a line.
const char* across_nodes_refusal(const CommContext& ctx, MPI_Op op, const ElementLayout& layout);

}  // namespace mcorecoll
