#include "alltoall/alltoall_rounds.hpp"

#include <algorithm>
#include <cstring>

#include "node/node_shm.hpp"
#include "node/wait.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {

void stage_round(CommContext& ctx, NodeShm& shm, const Round& round, const char* out,
                 std::uint64_t block, std::uint64_t offset) {
  char* mine = const_cast<char*>(round.staged_by(ctx.node_rank));
  for (int dst = 0; dst < ctx.size; ++dst)
    std::memcpy(mine + static_cast<std::size_t>(dst) * round.len, out + dst * block + offset, round.len);
  shm.post(ctx.node_rank).store(round.seq, std::memory_order_release);
}

void pack_exchange(CommContext& ctx, const Round& round, std::vector<int>& counts, std::vector<int>& displs) {
  const int local = ctx.node_size, nodes = ctx.node_count;
  counts.assign(static_cast<std::size_t>(nodes), 0);
  displs.assign(static_cast<std::size_t>(nodes), 0);
  std::size_t total = 0;
  for (int node = 0; node < nodes; ++node) {
    if (node == ctx.node_index) continue;
    const std::size_t bytes = ctx.node_members[static_cast<std::size_t>(node)].size() *
                              static_cast<std::size_t>(local) * round.len;
    counts[static_cast<std::size_t>(node)] = static_cast<int>(bytes);
    displs[static_cast<std::size_t>(node)] = static_cast<int>(total);
    total += bytes;
  }
  ctx.exchange_buffer.resize(total);
  char* out = ctx.exchange_buffer.data();
  for (int node = 0; node < nodes; ++node) {
    if (node == ctx.node_index) continue;
    for (int s = 0; s < local; ++s) {
      const char* staged = round.staged_by(s);
      for (int d : ctx.node_members[static_cast<std::size_t>(node)]) {
        std::memcpy(out, staged + static_cast<std::size_t>(d) * round.len, round.len);
        out += round.len;
      }
    }
  }
}

void copy_from_staging(const CommContext& ctx, const Round& round, int r, char* recv,
                       std::uint64_t block, std::uint64_t offset) {
  const std::vector<int>& mates = ctx.node_members[static_cast<std::size_t>(ctx.node_index)];
  std::memcpy(recv + mates[static_cast<std::size_t>(r)] * block + offset,
              round.staged_by(r) + static_cast<std::size_t>(ctx.rank) * round.len, round.len);
}

void copy_from_inbox(const CommContext& ctx, NodeShm& shm, const Round& round, char* recv,
                     std::uint64_t block, std::uint64_t offset) {
  const char* inbox = shm.inbox(round.h);
  const std::size_t local = static_cast<std::size_t>(ctx.node_size);
  for (int src = 0; src < ctx.size; ++src) {
    const int remote = ctx.remote_index[static_cast<std::size_t>(src)];
    if (remote < 0) continue;
    const std::size_t at = (static_cast<std::size_t>(remote) * local + static_cast<std::size_t>(ctx.node_rank)) * round.len;
    std::memcpy(recv + src * block + offset, inbox + at, round.len);
  }
}

}  // namespace mcorecoll
