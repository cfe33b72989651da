// The non-blocking and persistent allreduce and reduce on a communicator that spans nodes:
// reduce_across_nodes.hpp's three phases as an operation of the progress engine.
//  1. the node's ranks folded in rank order at its leader (ReduceRounds, no MPI call);
//  2. at the leaders, the nodes' partials sent to every leader that folds them (one message per
//     pair, leader_messages.hpp; beyond kDirectExchangeMaxNodes nodes PMPI_Iallgather or
//     PMPI_Igather), folded in node order once they are in (above kGatherFoldBytes:
//     PMPI_Iallreduce/PMPI_Ireduce); steps that would call MPI wait for one that may;
//  3. the result through the node's ring (NodeRingSteps, no MPI call).
// Only for what ireduce_shm.hpp allows (a named type, an op combine() runs itself): the fold
// may run in the progress helper. Such a type is contiguous: no packing.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "progress/operation.hpp"
#include "reduction/element_layout.hpp"

namespace mcorecoll {

struct Config;

std::unique_ptr<Operation> make_ireduce_across_nodes(CommContext& ctx, const Config& config, const void* sendbuf,
                                                     void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                                                     int root, const ElementLayout& layout, std::uint64_t bytes);

}  // namespace mcorecoll
