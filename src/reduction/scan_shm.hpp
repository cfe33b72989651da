// MPI_Scan and MPI_Exscan inside one node. A contribution of one record line goes over the
// lines' tree (scan_lines.hpp). Larger ones: every rank but the last stages the image of its
// contribution once (exchange/staged_exchange.hpp, one tile for all readers), rank r copies
// the images of ranks 0..r-1 and folds them with its own (scan) in rank order,
// c0 op (c1 op (... op cr)) as the other staged reductions do (combine.hpp): the same bits in
// every run. Rank r reads r images: the work grows with the node's size, so the decision table
// bounds the sizes it takes.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "exchange/staged_exchange.hpp"
#include "reduction/element_layout.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// The exchange of one call, for the blocking form below and the operation of the others
// (iscan_shm.hpp): this rank's image `own` to the ranks after it, the images of
// ranks 0..r-1 into `operands` (slot r at r x `image`).
ExchangeRounds scan_rounds(CommContext& ctx, const Config& config, const char* own, char* operands,
                           std::size_t image);

// The fold once the operands are in: c0 op (c1 op (... op c_last)), last = this rank (scan,
// whose own image is `own`) or the one before it (exscan; rank 0 gets nothing), in `acc` (room
// for an image), delivered into `recvbuf`.
int fold_prefix(const CommContext& ctx, bool exclusive, const char* own, const char* operands, char* acc,
                std::size_t image, int count, MPI_Datatype type, MPI_Op op, const ElementLayout& layout,
                void* recvbuf, std::vector<char>& packed);

// `exclusive`: MPI_Exscan (rank 0's receive buffer is left alone). `input`: the send buffer,
// or the receive buffer with MPI_IN_PLACE.
int scan_shm(CommContext& ctx, const Config& config, bool exclusive, const void* input, void* recvbuf, int count,
             MPI_Datatype type, MPI_Op op, const ElementLayout& layout);

}  // namespace mcorecoll
