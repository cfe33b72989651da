// Combining two contributions of a reduction: inout = in op inout, element by element, as
// MPI_Reduce_local defines it (`in` is the earlier rank's operand, which matters for ops that
// do not commute). The staged algorithms fold in rank order, always (c0 op (c1 op (... op
// c(n-1))) flat, or with a bracketing a tree fixes from the node's size), so every rank gets
// the same bits in every run.
#pragma once

#include <mpi.h>

#include <cstddef>

namespace mcorecoll {

// `count` elements of `type` (buffers laid out as the type says). The arithmetic, bitwise and
// logical ops on the common integer types and SUM/PROD on float and double run as loops of
// ours that the compiler vectorises; everything else (the other
// predefined pairs, derived types, user ops) through the MPI library's PMPI_Reduce_local.
int combine(const void* in, void* inout, int count, MPI_Datatype type, MPI_Op op);

// Whether combine() needs no MPI call for this pair (our loops): the non-blocking forms take
// their steps where MPI may not be called (progress_helper.hpp), so they take only these.
bool combine_without_mpi(MPI_Datatype type, MPI_Op op);
// The same for a named type only: what a non-blocking or persistent reduction takes (a derived
// type, like a user op, may be freed while its operation runs).
bool combine_named_without_mpi(MPI_Datatype type, MPI_Op op);

}  // namespace mcorecoll
