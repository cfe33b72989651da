#include "bcast/bcast_common.hpp"

#include <unistd.h>

#include <algorithm>

#include "decisions/config.hpp"
#include "node/node_shm.hpp"
#include "node/single_copy.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {
const std::vector<int>& coarsest_leaders(const CommContext& ctx) {
  static const std::vector<int> flat;
  return ctx.hierarchy.leader.empty() ? flat : ctx.hierarchy.leader[0];
}

ReaderGroups groups_of_readers(const CommContext& ctx, const Config& config, int source) {
  return reader_groups(ctx.node_size, source, config.bcast_readers, coarsest_leaders(ctx));
}

void post_single_copy(NodeShm& shm, int source, const char* data, std::uint64_t size, std::uint64_t seq) {
  std::atomic<std::uint64_t>* posted = shm.posted(source);
  posted[0].store(reinterpret_cast<std::uintptr_t>(data), std::memory_order_relaxed);
  posted[1].store(size, std::memory_order_relaxed);
  posted[2].store(static_cast<std::uint64_t>(getpid()), std::memory_order_relaxed);
  shm.post(source).store(seq, std::memory_order_release);
}

void pull_single_copy(CommContext& ctx, const Config& config, int source, char* data, std::uint64_t size) {
  std::atomic<std::uint64_t>* posted = ctx.shm->posted(source);
  const char* remote = reinterpret_cast<const char*>(posted[0].load(std::memory_order_relaxed));
  const pid_t pid = static_cast<pid_t>(posted[2].load(std::memory_order_relaxed));
  const ReaderGroups readers = groups_of_readers(ctx, config, source);
  const std::uint64_t groups = static_cast<std::uint64_t>(readers.count);
  const std::uint64_t piece = std::max<std::uint64_t>((size + groups - 1) / groups, 64 << 10);
  const std::uint64_t pieces = (size + piece - 1) / piece;
  for (std::uint64_t step = 0; step < pieces; ++step) {
    const std::uint64_t p = rotating_part(readers.group[static_cast<std::size_t>(ctx.node_rank)], step, pieces);
    const std::size_t n = static_cast<std::size_t>(std::min(piece, size - p * piece));
    read_remote_or_stop(ctx.comm, source, pid, remote + p * piece, data + p * piece, n,
                        "MCORECOLL_BCAST_CMA_MIN_BYTES");
  }
}

}  // namespace mcorecoll
