// A communicator's part of the node machinery, made on its first call that needs it
// (collective over the communicator): its shared segment, a share of the node's pool, the
// single-copy probe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "node/node_pool.hpp"
#include "node/shm_object.hpp"

namespace mcorecoll {

class CommContext;
struct Config;
struct SegmentExtras;

// What a node leader tells its node's ranks when a communicator's segment is carved, as plain
// bytes (ranks of one node share an ABI).
struct LeaderNews {
  ShmAddress pool;                              // its node pool (error set: it has none)
  std::uint64_t segment = NodePool::kNoSpace;   // the segment it carved out of that pool
  std::uint64_t probe = 0;                      // single copy's probe word, in its memory
  long pid = 0;
};

// The leader's part: its pool (*pool, null where it has none), a segment carved out of it for
// node ranks on the NUMA domains `numa_os` (kNoSpace where it has no room), and its probe.
LeaderNews leader_news(const Config& config, const std::vector<int>& numa_os, const SegmentExtras& extras,
                       NodePool** pool);
// Whether this rank may not read its leader's memory (single copy refused).
bool copy_refused(const LeaderNews& news);
// Where this rank's progress helper can be woken, written into its segment's line (0: nowhere;
// the peers then do not ring).
void announce_bell(CommContext& ctx);

// What the context's segment holds beyond the node's lines: the alltoall's fixed staging and
// inbox where the leaders' exchange may be taken (alike on every node).
SegmentExtras segment_extras(const CommContext& ctx, const Config& config);

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
