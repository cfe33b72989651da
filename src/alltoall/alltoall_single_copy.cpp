#include "alltoall/alltoall_single_copy.hpp"

#include <unistd.h>

#include <cstring>
#include <vector>

#include "common/message_bytes.hpp"
#include "decisions/config.hpp"
#include "node/node_reads.hpp"
#include "node/node_shm.hpp"
#include "node/single_copy.hpp"
#include "node/wait.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {

void post_send_data(CommContext& ctx, const char* out, std::uint64_t seq) {
  std::atomic<std::uint64_t>* posted = ctx.shm->posted(ctx.node_rank);
  posted[0].store(reinterpret_cast<std::uintptr_t>(out), std::memory_order_relaxed);
  posted[2].store(static_cast<std::uint64_t>(getpid()), std::memory_order_relaxed);
  ctx.shm->post(ctx.node_rank).store(seq, std::memory_order_release);
}

void pull_block(CommContext& ctx, int r, const char* out, char* recv, std::uint64_t block) {
  const std::vector<int>& mates = ctx.node_members[static_cast<std::size_t>(ctx.node_index)];
  const std::uint64_t my_offset = static_cast<std::uint64_t>(ctx.rank) * block;
  char* to = recv + static_cast<std::uint64_t>(mates[static_cast<std::size_t>(r)]) * block;
  if (r == ctx.node_rank) {
    std::memcpy(to, out + my_offset, block);
    return;
  }
  std::atomic<std::uint64_t>* theirs = ctx.shm->posted(r);
  const char* from = reinterpret_cast<const char*>(theirs[0].load(std::memory_order_relaxed));
  read_remote_or_stop(ctx.comm, r, static_cast<pid_t>(theirs[2].load(std::memory_order_relaxed)),
                      from + my_offset, to, block, "MCORECOLL_ALLTOALL_CMA_MIN_BYTES");
}

int alltoall_single_copy(CommContext& ctx, const Config& config, const void* sendbuf,
                         int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                         MPI_Datatype recvtype, std::uint64_t block) {
  if (block == 0) return MPI_SUCCESS;
  const int n = ctx.size;
  const std::uint64_t total = block * static_cast<std::uint64_t>(n);
  AlltoallBytes sides(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, n, total);
  sides.send.pack();
  MessageBytes& recv = sides.recv;
  const char* out = sides.send.data();
  if (sides.in_place && sides.send.contiguous()) {  // peers must read the blocks as they were
    ctx.send_copy.assign(out, out + total);
    out = ctx.send_copy.data();
  }

  NodeShm& shm = *ctx.shm;
  Waiter waiter = Waiter::for_context(ctx, config);
  const std::uint64_t seq = ++ctx.seq;
  post_send_data(ctx, out, seq);
  read_from_node(shm, ctx.node_rank, ctx.node_size, seq, config.alltoall_readers, waiter,
                 [&](int r) { pull_block(ctx, r, out, recv.data(), block); });
  // Peers read this rank's send data until they say they are done: only then may the caller
  // have its buffer back.
  shm.done(ctx.node_rank).store(seq, std::memory_order_release);
  for (int r = 0; r < ctx.node_size; ++r)
    if (r != ctx.node_rank) waiter.wait_for(shm.done(r), seq);
  recv.unpack();
  return MPI_SUCCESS;
}

}  // namespace mcorecoll
