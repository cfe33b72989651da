#include "reduction/scan_shm.hpp"

#include <cstring>

#include "exchange/staged_exchange.hpp"
#include "reduction/fold.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {

int scan_shm(CommContext& ctx, const Config& config, bool exclusive, const void* input, void* recvbuf, int count,
             MPI_Datatype type, MPI_Op op, const ElementLayout& layout) {
  const int me = ctx.node_rank, n = ctx.node_size;  // one node: node ranks are the ranks
  const std::size_t image = layout.image_bytes(static_cast<std::size_t>(count));
  // Operands 0..me-1 as images, then room for the result.
  char* operands = scratch_room(ctx.scan_scratch, image * (static_cast<std::size_t>(me) + 1));
  const char* own = static_cast<const char*>(input);
  ExchangeShape shape;
  shape.max_block = image;
  shape.gives = me < n - 1;
  for (int r = 0; r < me; ++r) shape.sources.push_back(r);
  staged_exchange(
      ctx, config, shape,
      [&](char* tiles, std::uint64_t offset, std::uint64_t len) {
        copy_bytes(tiles, own + offset, clipped(image, offset, len));
      },
      [&](int r, const char* tiles, std::uint64_t offset, std::uint64_t len) {
        copy_bytes(operands + static_cast<std::size_t>(r) * image + offset, tiles, clipped(image, offset, len));
      });
  const int last = exclusive ? me - 1 : me;
  if (last < 0) return MPI_SUCCESS;
  char* acc = operands + static_cast<std::size_t>(me) * image;
  copy_bytes(acc, exclusive ? operands + static_cast<std::size_t>(last) * image : own, image);
  int rc = MPI_SUCCESS;
  for (int r = last - 1; r >= 0 && rc == MPI_SUCCESS; --r)
    rc = combine(operands + static_cast<std::size_t>(r) * image, acc, count, type, op);
  if (rc == MPI_SUCCESS) rc = deliver(acc, static_cast<char*>(recvbuf), count, layout, type, ctx.comm, ctx.reduce_packed);
  return rc;
}

}  // namespace mcorecoll
