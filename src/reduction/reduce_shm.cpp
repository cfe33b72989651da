#include "reduction/reduce_shm.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "alltoall/alltoall_rounds.hpp"
#include "node/call_areas.hpp"
#include "node/node_shm.hpp"
#include "node/wait.hpp"
#include "reduction/combine.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {
namespace {

// Folds elements [first, first + k) of every node rank's staged image in rank order into
// `acc` (room for the image of those k elements): acc = c0 op (c1 op (... op c(n-1))).
int fold(const Round& round, int ranks, std::size_t first, int k, const ElementLayout& layout, MPI_Datatype type,
         MPI_Op op, char* acc) {
  const std::size_t at = first * layout.extent;
  std::memcpy(acc, round.staged_by(ranks - 1) + at, layout.image_bytes(static_cast<std::size_t>(k)));
  int rc = MPI_SUCCESS;
  for (int r = ranks - 2; r >= 0 && rc == MPI_SUCCESS; --r) rc = combine(round.staged_by(r) + at, acc, k, type, op);
  return rc;
}

// Writes the k elements of an image into the user's buffer at `to`: the data bytes only (gaps
// and padding of the user's buffer are not ours to touch).
int deliver(const char* image, char* to, int k, const ElementLayout& layout, MPI_Datatype type, MPI_Comm comm,
            std::vector<char>& packed) {
  if (layout.contiguous) {
    std::memcpy(to + layout.data_begin, image + layout.data_begin,
                layout.image_bytes(static_cast<std::size_t>(k)) - layout.data_begin);
    return MPI_SUCCESS;
  }
  int size = 0, position = 0;
  PMPI_Pack_size(k, type, comm, &size);
  packed.resize(static_cast<std::size_t>(size));
  int rc = PMPI_Pack(image, k, type, packed.data(), size, &position, comm);
  const int packed_bytes = position;
  position = 0;
  if (rc == MPI_SUCCESS) rc = PMPI_Unpack(packed.data(), packed_bytes, &position, to, k, type, comm);
  return rc;
}

char* scratch_for(CommContext& ctx, const ElementLayout& layout, int k) {
  const std::size_t bytes = layout.image_bytes(static_cast<std::size_t>(k));
  if (ctx.reduce_scratch.size() < bytes) ctx.reduce_scratch.resize(bytes);
  return ctx.reduce_scratch.data();
}

}  // namespace

int reduce_shm(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf, int count,
               MPI_Datatype type, MPI_Op op, int root, const ElementLayout& layout) {
  if (count == 0) return MPI_SUCCESS;
  const int n = ctx.node_size, me = ctx.node_rank;  // one node: node ranks are the ranks
  const bool gets_result = root < 0 || root == me;
  const char* mine = static_cast<const char*>(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf);
  char* recv = static_cast<char*>(recvbuf);

  NodeShm& shm = *ctx.shm;
  Waiter waiter = Waiter::for_context(ctx, config);
  // Two halves, each of a round's image per rank: ask for the whole image spread over the peers.
  const std::size_t image = layout.image_bytes(static_cast<std::size_t>(count));
  const StagingAreas staging = staging_areas(ctx, config, waiter, (image + n - 1) / static_cast<std::size_t>(n));
  const std::size_t half = staging.area / 2;
  // Every rank holds the same areas (the lease protocol), so all agree on this; a fallback
  // area too small for one element sends every rank to the MPI library alike.
  if (half < layout.extent) {
    return root < 0 ? PMPI_Allreduce(sendbuf, recvbuf, count, type, op, ctx.comm)
                    : PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, ctx.comm);
  }
  const int per_round = static_cast<int>(std::min<std::size_t>(half / layout.extent, static_cast<std::size_t>(count)));
  // A contiguous result is folded straight into the receive buffer (its staged copy is taken
  // before); otherwise in scratch, then delivered data byte by data byte.
  const bool fold_in_place = layout.contiguous && layout.data_begin == 0;
  std::vector<char>& packed = ctx.reduce_packed;
  char* const scratch = fold_in_place ? nullptr : scratch_for(ctx, layout, per_round);
  int rc = MPI_SUCCESS;
  for (int first = 0; first < count; first += per_round) {
    const int k = std::min(per_round, count - first);
    const std::size_t at = static_cast<std::size_t>(first) * layout.extent;
    const Round round = next_round(ctx, staging, layout.image_bytes(static_cast<std::size_t>(k)));
    for (unsigned polls = 0; rank_using_half(ctx, shm, round) >= 0;) waiter.backoff(polls);
    // This round's image of this rank's contribution, at the same offsets as in its buffer.
    char* staged = const_cast<char*>(round.staged_by(me));
    std::memcpy(staged, mine + at, layout.image_bytes(static_cast<std::size_t>(k)));
    shm.post(me).store(round.seq, std::memory_order_release);

    const bool slices = static_cast<std::size_t>(k) * layout.extent >= static_cast<std::size_t>(n) * kSliceMinBytes;
    if (!slices) {
      if (gets_result) {
        for (int r = 0; r < n; ++r) waiter.wait_for(shm.post(r), round.seq);
        const int folded = fold(round, n, 0, k, layout, type, op, fold_in_place ? recv + at : scratch);
        const int delivered = fold_in_place ? MPI_SUCCESS : deliver(scratch, recv + at, k, layout, type, ctx.comm, packed);
        if (rc == MPI_SUCCESS) rc = folded != MPI_SUCCESS ? folded : delivered;
      }
    } else {
      // Slice s: elements [k * s / n, k * (s + 1) / n) of the round.
      auto slice_begin = [&](int s) { return static_cast<int>(static_cast<long long>(k) * s / n); };
      const int a = slice_begin(me), b = slice_begin(me + 1);
      for (int r = 0; r < n; ++r) waiter.wait_for(shm.post(r), round.seq);
      // Only this rank reads slice `me` of the staged images, so its result goes there (after
      // the fold has read it: folded in scratch first).
      if (b > a) {
        const int folded = fold(round, n, static_cast<std::size_t>(a), b - a, layout, type, op, scratch_for(ctx, layout, b - a));
        if (rc == MPI_SUCCESS) rc = folded;
        std::memcpy(staged + static_cast<std::size_t>(a) * layout.extent, ctx.reduce_scratch.data(),
                    layout.image_bytes(static_cast<std::size_t>(b - a)));
      }
      shm.reduced(me).store(round.seq, std::memory_order_release);
      if (gets_result) {
        for (int i = 0; i < n; ++i) {
          const int s = (me + i) % n;  // staggered, like every read of the node
          const int sa = slice_begin(s), sb = slice_begin(s + 1);
          if (sb == sa) continue;
          waiter.wait_for(shm.reduced(s), round.seq);
          const std::size_t from = static_cast<std::size_t>(sa) * layout.extent;
          const int delivered = deliver(round.staged_by(s) + from, recv + at + from, sb - sa, layout, type, ctx.comm, packed);
          if (rc == MPI_SUCCESS) rc = delivered;
        }
      }
    }
    shm.done(me).store(round.seq, std::memory_order_release);
    ctx.last_stage_seq[round.h] = round.seq;
  }
  return rc;
}

}  // namespace mcorecoll
