// The non-blocking and persistent scan and exscan inside one node: an operation of the progress
// engine over the lines' tree (scan_lines.hpp) for a contribution of one line, else over the
// staged exchange (exchange/exchange_operation.hpp).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "reduction/element_layout.hpp"
#include "progress/operation.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// Named types and ops that combine() folds without MPI only (the caller checks).
std::unique_ptr<Operation> make_iscan(CommContext& ctx, const Config& config, bool exclusive, const void* sendbuf,
                                      void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                                      const ElementLayout& layout);

}  // namespace mcorecoll
