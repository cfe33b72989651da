// What the blocking bcast (bcast_shm.cpp) and the non-blocking one (ibcast_shm.cpp) share:
// the groups of readers and the single copy's post and pull. (The ring's cells are asked for
// in node/call_areas.hpp.)
#pragma once

#include <cstdint>
#include <vector>

#include "bcast/reader_schedule.hpp"

namespace mcorecoll {

class CommContext;
class NodeShm;
class Waiter;
struct Config;

// The leader of each node rank's group at the node's coarsest level (sockets; else NUMA
// domains or caches); empty when the node has no such level.
const std::vector<int>& coarsest_leaders(const CommContext& ctx);

// The groups of the readers of `source` (reader_schedule.hpp), from MCORECOLL_BCAST_READERS.
ReaderGroups groups_of_readers(const CommContext& ctx, const Config& config, int source);

// Single copy: the source posts where its `size` bytes are, for operation `seq`; each reader,
// once it has seen the post, pulls them in pieces, one piece per reader group, in the rotating
// schedule (reader_schedule.hpp). Pieces are large: every process_vm_readv pins pages and
// costs a system call. A refused read stops the job (single_copy.hpp).
void post_single_copy(NodeShm& shm, int source, const char* data, std::uint64_t size, std::uint64_t seq);
void pull_single_copy(CommContext& ctx, const Config& config, int source, char* data, std::uint64_t size);

}  // namespace mcorecoll
