#include "alltoall_shm.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "comm_context.hpp"
#include "config.hpp"
#include "message_bytes.hpp"
#include "node_shm.hpp"
#include "wait.hpp"

namespace mcorecoll {

int alltoall_shm(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount,
                 MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                 std::uint64_t block) {
  if (block == 0) return MPI_SUCCESS;
  const int n = ctx.size, me = ctx.rank;  // one node: communicator rank == node rank
  const std::uint64_t total = block * static_cast<std::uint64_t>(n);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  MessageBytes recv(recvbuf, recvcount * n, recvtype, total, ctx.comm);
  // In place, the send data is the receive buffer, read tile by tile before it is overwritten.
  MessageBytes send(in_place ? recvbuf : const_cast<void*>(sendbuf),
                    in_place ? recvcount * n : sendcount * n, in_place ? recvtype : sendtype,
                    total, ctx.comm);
  send.pack();
  const char* out = in_place ? recv.data() : send.data();
  if (in_place && !recv.contiguous()) std::memcpy(recv.data(), send.data(), total);

  NodeShm& shm = *ctx.shm;
  Waiter waiter = Waiter::for_context(ctx, config);
  // The staging area is used in two halves, alternately, so that a rank can stage the next
  // round while slower ranks still read the last one. A round moves one tile of every block.
  const std::size_t half = shm.stage_bytes() / 2;
  const std::uint64_t tile = std::max<std::uint64_t>(half / static_cast<std::size_t>(n), 1);
  for (std::uint64_t offset = 0; offset < block; offset += tile) {
    const std::size_t len = static_cast<std::size_t>(std::min(tile, block - offset));
    const std::uint64_t seq = ++ctx.seq;
    const int h = static_cast<int>(seq & 1);  // same on every rank: they count alike
    // This half is free once every rank has read the last round that used it.
    for (int r = 0; r < n; ++r)
      if (r != me) waiter.wait_for(shm.done(r), ctx.last_stage_seq[h]);
    char* mine = shm.stage(me) + static_cast<std::size_t>(h) * half;
    for (int dst = 0; dst < n; ++dst)
      std::memcpy(mine + static_cast<std::size_t>(dst) * len, out + dst * block + offset, len);
    shm.post(me).store(seq, std::memory_order_release);
    for (int i = 0; i < n; ++i) {  // staggered: rank i starts at peer i + 1
      const int src = (me + 1 + i) % n;
      if (src != me) waiter.wait_for(shm.post(src), seq);
      const char* theirs = shm.stage(src) + static_cast<std::size_t>(h) * half;
      std::memcpy(recv.data() + src * block + offset, theirs + static_cast<std::size_t>(me) * len, len);
    }
    shm.done(me).store(seq, std::memory_order_release);
    ctx.last_stage_seq[h] = seq;
  }
  recv.unpack();
  return MPI_SUCCESS;
}

}  // namespace mcorecoll
