// The non-blocking and persistent scan and exscan on a communicator that spans nodes: the rounds
// of scan_across_nodes.hpp taken as the progress engine gives them (the leaders' exscan posted
// and tested by steps that may call MPI). Only for what iscan_shm.hpp allows (a named type, an
// op combine() runs itself): the folds may run in the progress helper.
#pragma once

#include <mpi.h>

#include <memory>

#include "progress/operation.hpp"
#include "reduction/element_layout.hpp"

namespace mcorecoll {

struct Config;

std::unique_ptr<Operation> make_iscan_across_nodes(CommContext& ctx, const Config& config, bool exclusive,
                                                   const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                                                   MPI_Op op, const ElementLayout& layout);

}  // namespace mcorecoll
