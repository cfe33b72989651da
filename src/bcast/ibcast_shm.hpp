// The non-blocking bcast on shared memory: the blocking algorithm's phases (bcast_shm.hpp) as
// a state machine. Inside a node the source fills as many ring cells as its readers have freed
// and returns; readers copy out the chunks that are there; with single copy the source posts
// its buffer and readers pull it in one step. Across nodes the leaders use PMPI_Ibcast.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "progress/operation.hpp"

namespace mcorecoll {

struct Config;

// As bcast_shm(), whose checks the caller has made. The root's data is packed (when its type
// is not contiguous) at begin().
std::unique_ptr<Operation> make_ibcast(CommContext& ctx, const Config& config, void* buffer, int count,
                                       MPI_Datatype datatype, int root, std::uint64_t bytes,
                                       bool single_copy);

}  // namespace mcorecoll
