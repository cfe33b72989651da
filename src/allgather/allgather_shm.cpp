#include "allgather/allgather_shm.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

#include "alltoall/alltoall_rounds.hpp"
#include "common/message_bytes.hpp"
#include "decisions/config.hpp"
#include "node/call_areas.hpp"
#include "node/node_reads.hpp"
#include "node/node_shm.hpp"
#include "node/wait.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {

int allgather_shm(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount,
                  MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                  std::uint64_t block) {
  if (block == 0) return MPI_SUCCESS;
  const int n = ctx.node_size, me = ctx.node_rank;  // one node: node ranks are the ranks
  MessageBytes recv(recvbuf, recvcount * n, recvtype, block * static_cast<std::uint64_t>(n));
  // The block this rank gives: its send side, or in place its own block of the receive buffer.
  std::unique_ptr<MessageBytes> send;
  const char* out = nullptr;
  if (sendbuf == MPI_IN_PLACE) {
    recv.pack();  // a no-op when contiguous
    out = recv.data() + static_cast<std::uint64_t>(me) * block;
  } else {
    send = std::make_unique<MessageBytes>(const_cast<void*>(sendbuf), sendcount, sendtype, block);
    send->pack();
    out = send->data();
  }

  NodeShm& shm = *ctx.shm;
  Waiter waiter = Waiter::for_context(ctx, config);
  const StagingAreas staging = staging_areas(ctx, config, waiter, block);
  const std::uint64_t tile = std::max<std::uint64_t>(staging.area / 2, 1);
  for (std::uint64_t offset = 0; offset < block; offset += tile) {
    const Round round = next_round(ctx, staging, std::min(tile, block - offset));
    for (unsigned polls = 0; rank_using_half(ctx, shm, round) >= 0;) waiter.backoff(polls);
    std::memcpy(const_cast<char*>(round.staged_by(me)), out + offset, round.len);
    shm.post(me).store(round.seq, std::memory_order_release);
    read_from_node(shm, me, n, round.seq, config.alltoall_readers, waiter, [&](int r) {
      std::memcpy(recv.data() + static_cast<std::uint64_t>(r) * block + offset, round.staged_by(r), round.len);
    });
    shm.done(me).store(round.seq, std::memory_order_release);
    ctx.last_stage_seq[round.h] = round.seq;
  }
  recv.unpack();
  return MPI_SUCCESS;
}

}  // namespace mcorecoll
