#include "lanes/allgather_lanes.hpp"

#include <cstring>
#include <vector>

#include "allgather/allgather_bytes.hpp"
#include "common/scratch_room.hpp"
#include "lanes/lanes.hpp"
#include "node/comm_context.hpp"
#include "node/transfer_count.hpp"

namespace mcorecoll {
namespace {

// Kept on the communicator: this rank's lane (a block of each node), and one node's blocks where
// its ranks are not consecutive.
struct AllgatherLanesRooms {
  std::vector<char> lane, node;
};

// Whether node `i`'s ranks are consecutive in the communicator, in node-rank order.
bool consecutive(const CommContext& ctx, int i) {
  const std::vector<int>& members = ctx.node_members[static_cast<std::size_t>(i)];
  for (std::size_t j = 1; j < members.size(); ++j)
    if (members[j] != members[0] + static_cast<int>(j)) return false;
  return true;
}

}  // namespace

int allgather_lanes(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                    void* recvbuf, int recvcount, MPI_Datatype recvtype, std::uint64_t block) {
  if (block == 0) return MPI_SUCCESS;
  const int nodes = ctx.node_count, n = ctx.node_size;
  AllgatherBytes bytes(ctx, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, block);
  bytes.pack();
  AllgatherLanesRooms& rooms = ctx.kept.get<AllgatherLanesRooms>();
  char* lane = scratch_room(rooms.lane, block * static_cast<std::uint64_t>(nodes));
  // 1. Node rank r's block of every node, in node order (its rank on the lane: its node's index).
  count_network(MCORECOLL_NETWORK_LANE, -1, block);
  const int rc = PMPI_Allgather(bytes.out(), static_cast<int>(block), MPI_BYTE, lane, static_cast<int>(block), MPI_BYTE,
                                lanes_of(ctx));
  if (rc != MPI_SUCCESS) return rc;
  // 2. Each node's blocks, one from each lane of this node, into their ranks' places.
  char* all = bytes.recv.data();
  for (int i = 0; i < nodes; ++i) {
    const std::vector<int>& members = ctx.node_members[static_cast<std::size_t>(i)];
    const char* own = lane + block * static_cast<std::uint64_t>(i);
    if (consecutive(ctx, i)) {
      gather_slices(ctx, config, own, all + block * static_cast<std::uint64_t>(members[0]), block);
      continue;
    }
    char* room = scratch_room(rooms.node, block * static_cast<std::uint64_t>(n));
    gather_slices(ctx, config, own, room, block);
    for (int j = 0; j < n; ++j)
      std::memcpy(all + block * static_cast<std::uint64_t>(members[static_cast<std::size_t>(j)]),
                  room + block * static_cast<std::uint64_t>(j), block);
  }
  bytes.recv.unpack();
  return MPI_SUCCESS;
}

}  // namespace mcorecoll
