// The non-blocking and persistent bcast on shared memory: the bcast's rounds (bcast_shm.hpp)
// taken as the progress engine gives them; across nodes the leaders use PMPI_Ibcast.
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
