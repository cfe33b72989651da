// A communicator's part of the node machinery, made on its first call that needs it
// (collective over the communicator): its shared segment, a share of the node's pool, the
// single-copy probe.
#pragma once

#include <cstddef>

namespace mcorecoll {

class CommContext;
struct Config;

// Creates the context's shared segment on first use, and probes single copy. False, with one
// warning per process, when shared memory cannot be had: the caller goes to PMPI.
bool ensure_shm(CommContext& ctx, const Config& config);

// Bytes of each rank's alltoall staging area: MCORECOLL_ALLTOALL_STAGE_BYTES in whole pages.
std::size_t staging_area_bytes(const Config& config);
// The same for allreduce and reduce: MCORECOLL_REDUCE_STAGE_BYTES in whole pages.
std::size_t reduce_staging_area_bytes(const Config& config);

// Whether every rank may use single copy on this communicator; probed on first use
// (collective over the communicator), said once in verbose mode when refused.
bool single_copy_allowed(CommContext& ctx, const Config& config);

}  // namespace mcorecoll
