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

}  // namespace mcorecoll
