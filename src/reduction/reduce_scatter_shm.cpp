#include "reduction/reduce_scatter_shm.hpp"

#include "reduction/fold.hpp"
#include "reduction/reduce_across_nodes.hpp"
#include "reduction/reduce_shm.hpp"
#include "node/comm_context.hpp"
#include "reduction/reduction_rooms.hpp"

namespace mcorecoll {

bool reduce_scatter_by_block(const ElementLayout& whole, int total) {
  return whole.image_bytes(static_cast<std::size_t>(total)) > kReduceLineBytes;
}

int reduce_scatter_shm(CommContext& ctx, const Config& config, const void* input, void* recvbuf, int total,
                       int first, int count, MPI_Datatype type, MPI_Op op, const ElementLayout& whole,
                       const ElementLayout& block) {
  if (reduce_scatter_by_block(whole, total)) {
    ReduceRounds rounds(ctx, config, input, recvbuf, total, type, op, ScatterBlock{first, count, block}, whole);
    run_to_end(rounds, ctx, config);
    // Areas too small for one element (decided at the lease, before anything is written: every
    // rank alike): the allreduce below hands the call to PMPI.
    if (!rounds.too_small()) return rounds.rc;
  }
  // Scratch of the whole result's image (kept from call to call: no allocation once grown).
  char* result = scratch_room(reduction_rooms(ctx).reduce_scatter_result, whole.image_bytes(static_cast<std::size_t>(total)));
  int rc = reduce_shm(ctx, config, input, result, total, type, op, -1, whole);
  if (rc == MPI_SUCCESS && count > 0)
    rc = deliver(result + static_cast<std::size_t>(first) * whole.extent, static_cast<char*>(recvbuf), count, block,
                 type, ctx.comm, reduction_rooms(ctx).packed);
  return rc;
}

int reduce_scatter_across_nodes(CommContext& ctx, const Config& config, const void* input, void* recvbuf, int total,
                                int first, int count, MPI_Datatype type, MPI_Op op, const ElementLayout& whole,
                                const ElementLayout& block, std::uint64_t bytes) {
  ReductionRooms& kept = reduction_rooms(ctx);
  char* result = scratch_room(kept.reduce_scatter_result, whole.image_bytes(static_cast<std::size_t>(total)));
  int rc = reduce_across_nodes(ctx, config, input, result, total, type, op, -1, whole, bytes);
  if (rc == MPI_SUCCESS && count > 0)
    rc = deliver(result + static_cast<std::size_t>(first) * whole.extent, static_cast<char*>(recvbuf), count, block,
                 type, ctx.comm, kept.packed);
  return rc;
}

}  // namespace mcorecoll
