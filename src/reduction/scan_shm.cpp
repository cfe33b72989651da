#include "reduction/scan_shm.hpp"

#include "reduction/fold.hpp"
#include "node/comm_context.hpp"
#include "reduction/reduction_rooms.hpp"
#include "reduction/scan_lines.hpp"
#include "node/wait.hpp"

namespace mcorecoll {

ExchangeRounds scan_rounds(CommContext& ctx, const Config& config, const char* own, char* operands,
                           std::size_t image) {
  const int me = ctx.node_rank, n = ctx.node_size;  // one node: node ranks are the ranks
  ExchangeShape shape;
  shape.max_block = image;
  shape.gives = me < n - 1;
  for (int r = 0; r < me; ++r) shape.sources.push_back(r);
  return ExchangeRounds(
      ctx, config, std::move(shape),
      [own, image](char* tiles, std::uint64_t offset, std::uint64_t len) {
        copy_bytes(tiles, own + offset, clipped(image, offset, len));
      },
      [operands, image](int r, const char* tiles, std::uint64_t offset, std::uint64_t len) {
        copy_bytes(operands + static_cast<std::size_t>(r) * image + offset, tiles, clipped(image, offset, len));
      });
}

int fold_prefix(const CommContext& ctx, bool exclusive, const char* own, const char* operands, char* acc,
                std::size_t image, int count, MPI_Datatype type, MPI_Op op, const ElementLayout& layout,
                void* recvbuf, std::vector<char>& packed) {
  const int last = exclusive ? ctx.node_rank - 1 : ctx.node_rank;
  if (last < 0) return MPI_SUCCESS;
  copy_bytes(acc, exclusive ? operands + static_cast<std::size_t>(last) * image : own, image);
  int rc = MPI_SUCCESS;
  for (int r = last - 1; r >= 0 && rc == MPI_SUCCESS; --r)
    rc = combine(operands + static_cast<std::size_t>(r) * image, acc, count, type, op);
  if (rc == MPI_SUCCESS) rc = deliver(acc, static_cast<char*>(recvbuf), count, layout, type, ctx.comm, packed);
  return rc;
}

int scan_shm(CommContext& ctx, const Config& config, bool exclusive, const void* input, void* recvbuf, int count,
             MPI_Datatype type, MPI_Op op, const ElementLayout& layout) {
  if (scan_on_lines(layout, count)) {
    ScanLineRounds rounds(ctx, exclusive, input, recvbuf, count, type, op, layout);
    Waiter waiter = Waiter::for_context(ctx, config);
    int waiting_on = -1;
    run_rounds(waiter, [&] { return rounds.advance(true, &waiting_on); }, [&] { return rounds.moves(); });
    return rounds.rc;
  }
  const std::size_t image = layout.image_bytes(static_cast<std::size_t>(count));
  const std::size_t me = static_cast<std::size_t>(ctx.node_rank);
  // Operands 0..me-1 as images, then room for the result.
  char* operands = scratch_room(reduction_rooms(ctx).scan_operands, image * (me + 1));
  const char* own = static_cast<const char*>(input);
  ExchangeRounds rounds = scan_rounds(ctx, config, own, operands, image);
  run_to_end(rounds, ctx, config);
  return fold_prefix(ctx, exclusive, own, operands, operands + me * image, image, count, type, op, layout, recvbuf,
                     reduction_rooms(ctx).packed);
}

}  // namespace mcorecoll
