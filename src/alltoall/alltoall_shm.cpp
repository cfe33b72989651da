#include "alltoall/alltoall_shm.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "alltoall/alltoall_rounds.hpp"
#include "common/message_bytes.hpp"
#include "decisions/config.hpp"
#include "node/node_reads.hpp"
#include "node/node_shm.hpp"
#include "node/wait.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {
namespace {

// Node leader, across nodes: once every rank of the node has staged the round, sends each
// other node the tiles its ranks get from this node and receives theirs straight into the
// inbox. Then says so to the node (also after an error, which the leader returns: the node
// must not wait for ever).
int exchange_between_nodes(CommContext& ctx, NodeShm& shm, const Round& round, Waiter& waiter) {
  for (int r = 1; r < ctx.node_size; ++r) waiter.wait_for(shm.post(r), round.seq);
  std::vector<int> counts, displs;
  pack_exchange(ctx, round, counts, displs);
  const int rc = PMPI_Alltoallv(ctx.exchange_buffer.data(), counts.data(), displs.data(), MPI_BYTE,
                                shm.inbox(round.h), counts.data(), displs.data(), MPI_BYTE,
                                ctx.leaders_comm);
  shm.delivered().store(round.seq, std::memory_order_release);
  return rc;
}

}  // namespace

int alltoall_shm(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount,
                 MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                 std::uint64_t block) {
  if (block == 0) return MPI_SUCCESS;
  const int n = ctx.size, my_local = ctx.node_rank;
  const bool across_nodes = ctx.node_count > 1;
  const std::uint64_t total = block * static_cast<std::uint64_t>(n);
  AlltoallBytes sides(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, n, total);
  sides.send.pack();
  MessageBytes &recv = sides.recv, &send = sides.send;
  // In place, the send data is the receive buffer, read tile by tile before it is overwritten.
  const char* out = sides.in_place ? recv.data() : send.data();
  if (sides.in_place && !recv.contiguous()) std::memcpy(recv.data(), send.data(), total);

  NodeShm& shm = *ctx.shm;
  Waiter waiter = Waiter::for_context(ctx, config);
  // A round moves one tile of every block; the inbox holds a round's tiles from other nodes
  // for every rank of the node.
  const StagingAreas staging = staging_areas(ctx, config, waiter, block);
  const std::uint64_t tile = tile_bytes(staging, n);
  int rc = MPI_SUCCESS;
  for (std::uint64_t offset = 0; offset < block; offset += tile) {
    const Round round = next_round(ctx, staging, std::min(tile, block - offset));
    // This half (and this half of the inbox) is free once every rank of the node has read
    // the last round that used it.
    for (unsigned polls = 0; rank_using_half(ctx, shm, round) >= 0;) waiter.backoff(polls);
    stage_round(ctx, shm, round, out, block, offset);
    if (across_nodes && my_local == 0) {
      const int exchanged = exchange_between_nodes(ctx, shm, round, waiter);
      if (rc == MPI_SUCCESS) rc = exchanged;
    }
    read_from_node(shm, my_local, ctx.node_size, round.seq, config.alltoall_readers, waiter,
                   [&](int r) { copy_from_staging(ctx, round, r, recv.data(), block, offset); });
    if (across_nodes) {
      if (my_local != 0) waiter.wait_for(shm.delivered(), round.seq);
      copy_from_inbox(ctx, shm, round, recv.data(), block, offset);
    }
    shm.done(my_local).store(round.seq, std::memory_order_release);
    ctx.last_stage_seq[round.h] = round.seq;
  }
  recv.unpack();
  return rc;
}

}  // namespace mcorecoll
