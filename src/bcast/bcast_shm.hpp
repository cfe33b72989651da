// The shared-memory MPI_Bcast (paper section 4.2): inside a node, copy-in/copy-out through a
// pipelined ring of shared cells (a message of up to 120 bytes travels in a one-line slot with
// its flag), or a single copy where every reader pulls straight from the source's buffer with
// Cross Memory Attach. In both, groups of at most k readers start on different parts of the
// message and go round (reader_schedule.hpp). Across nodes, node leaders broadcast with
// PMPI_Bcast on the leaders' communicator, the root's node first, pipelined by segment for
// large messages.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace mcorecoll {

class CommContext;
struct Config;

// `bytes`: the signature size (same on every rank). `single_copy`: use Cross Memory Attach
// (the caller has probed that the node allows it). Returns an MPI error code.
int bcast_shm(CommContext& ctx, const Config& config, void* buffer, int count,
              MPI_Datatype datatype, int root, std::uint64_t bytes, bool single_copy);

// The node phase alone, through the ring: node rank `source` hands `size` bytes at `data` to
// every other rank of its node (the reductions across nodes hand out their result this way).
void node_bcast_bytes(CommContext& ctx, const Config& config, char* data, std::uint64_t size, int source);

}  // namespace mcorecoll
