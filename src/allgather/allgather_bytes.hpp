// One rank's two sides of an allgather or allgatherv as bytes in signature order: the n blocks
// it receives, and the block it gives (its send side, or with MPI_IN_PLACE its own block of the
// receive buffer as it is before the call).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>

#include "common/block_bytes.hpp"
#include "common/message_bytes.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {

struct AllgatherBytes {
  AllgatherBytes(const CommContext& ctx, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, std::uint64_t block)
      : recv(recvbuf, recvcount * ctx.size, recvtype, block * static_cast<std::uint64_t>(ctx.size)),
        own_block(block * static_cast<std::uint64_t>(ctx.rank)) {
    if (sendbuf != MPI_IN_PLACE) send = std::make_unique<MessageBytes>(const_cast<void*>(sendbuf), sendcount, sendtype, block);
  }
  // Brings the given block into bytes (in place: the whole receive side, a no-op when contiguous).
  void pack() { send ? send->pack() : recv.pack(); }
  const char* out() { return send ? send->data() : recv.data() + own_block; }
  // For an operation that outlives its call: duplicates of derived datatypes.
  void hold_types() {
    recv.hold_type();
    if (send) send->hold_type();
  }

  MessageBytes recv;
  std::unique_ptr<MessageBytes> send;
  std::uint64_t own_block;
};

// The allgatherv's: blocks at their displacements. `own`: the send side's bytes.
struct AllgathervBytes {
  AllgathervBytes(const CommContext& ctx, const void* sendbuf, int sendcount, MPI_Datatype sendtype, std::uint64_t own,
                  void* recvbuf, const int* recvcounts, const int* displs, MPI_Datatype recvtype)
      : recv(recvbuf, ctx.size, recvcounts, displs, recvtype), me(ctx.rank) {
    if (sendbuf != MPI_IN_PLACE) send.emplace(const_cast<void*>(sendbuf), sendcount, sendtype, own);
  }
  // Brings the given block into bytes; returns them.
  const char* pack() {
    if (!send) {
      recv.pack(me);
      return recv.data(me);
    }
    send->pack();
    return send->data();
  }
  // This rank's own block into its place (given from the send side) and every block into the
  // user's buffer; the other blocks are in their places as bytes.
  void unpack() {
    if (send && recv.size(me) > 0) std::memcpy(recv.data(me), send->data(), recv.size(me));
    recv.unpack_all_but(send ? -1 : me);
  }
  void hold_types() {
    recv.hold_types();
    if (send) send->hold_type();
  }

  BlockBytes recv;
  std::optional<MessageBytes> send;
  int me;
};

}  // namespace mcorecoll
