// MPI_Scan and MPI_Exscan inside one node: every rank but the last stages the image of its
// contribution once (exchange/staged_exchange.hpp, one tile for all readers), rank r copies
// the images of ranks 0..r-1 and folds them with its own (scan) in rank order,
// c0 op (c1 op (... op cr)) as the other staged reductions do (combine.hpp): the same bits in
// every run. Rank r reads r images: the work grows with the node's size, so the decision table
// bounds the sizes it takes.
#pragma once

#include <mpi.h>

#include "reduction/element_layout.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// `exclusive`: MPI_Exscan (rank 0's receive buffer is left alone). `input`: the send buffer,
// or the receive buffer with MPI_IN_PLACE.
int scan_shm(CommContext& ctx, const Config& config, bool exclusive, const void* input, void* recvbuf, int count,
             MPI_Datatype type, MPI_Op op, const ElementLayout& layout);

}  // namespace mcorecoll
