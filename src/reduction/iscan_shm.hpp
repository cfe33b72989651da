// The non-blocking and persistent scan and exscan inside one node: the tree's rounds
// (scan_shm.hpp; one record line: scan_lines.hpp) as an operation of the progress engine.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "reduction/element_layout.hpp"
#include "progress/operation.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// Named types and ops that combine() folds without MPI only (the caller checks). `algorithm`:
// as scan_on_lines() (scan_lines.hpp) takes it.
std::unique_ptr<Operation> make_iscan(CommContext& ctx, const Config& config, bool exclusive, const void* sendbuf,
                                      void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                                      const ElementLayout& layout, int algorithm);

}  // namespace mcorecoll
