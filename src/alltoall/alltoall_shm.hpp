// The shared-memory MPI_Alltoall (paper section 4.3): in rounds, every rank stages a tile of
// each outgoing block in its own staging area, then gathers its incoming tiles from every peer
// of its node, starting with the next rank (so that no one area is read by everyone at once).
// Tiles are sized so that one round's staging fits in cache: what is copied in is still there
// when it is copied out. MPI_IN_PLACE works: a tile is staged before anyone writes over it.
// Across nodes, each node leader also packs the round's tiles bound for other nodes from the
// staging areas, exchanges them with the other leaders in one PMPI_Alltoallv (node_count^2
// messages instead of size^2), receives into a shared inbox, and the node's ranks copy their
// tiles out of it.
#pragma once

#include <mpi.h>

#include <cstdint>


namespace mcorecoll {

class CommContext;
struct Config;

// `block`: the signature size of one block (same on every rank). The communicator has a shared
// segment on every node (with an inbox when it spans nodes). Returns an MPI error code.
int alltoall_shm(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount,
                 MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                 std::uint64_t block);

}  // namespace mcorecoll
