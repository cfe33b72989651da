#include "bcast/bcast_shm.hpp"

#include <unistd.h>

#include <algorithm>

#include "common/message_bytes.hpp"
#include "decisions/config.hpp"
#include "node/node_shm.hpp"
#include "node/single_copy.hpp"
#include "node/wait.hpp"
#include "node/comm_context.hpp"
#include "node/transfer_count.hpp"

namespace mcorecoll {

BcastRounds::BcastRounds(CommContext& ctx, const Config& config, char* data, std::uint64_t bytes, int root,
                         bool single_copy, bool blocking)
    : ctx_(ctx), config_(config), data_(data), bytes_(bytes), single_copy_(single_copy), blocking_(blocking),
      ring_(ctx, config) {
  // Across nodes, segment by segment: while the leaders broadcast one segment, the root's node
  // already moves the next and the other nodes still hand out the last. Inside one node, one
  // segment: the ring pipelines by itself.
  segment_ = ctx.node_count > 1 && config.bcast_segment_bytes > 0 ? config.bcast_segment_bytes : bytes;
  const RankPlace& from = ctx.places[static_cast<std::size_t>(root)];
  const bool on_root_node = from.node == ctx.node_index;
  if (on_root_node && ctx.node_size > 1) phases_[phase_count_++] = {Phase::node, from.node_rank};
  if (ctx.node_count > 1) {
    if (ctx.node_rank == 0) phases_[phase_count_++] = {Phase::leaders, from.node};
    if (!on_root_node && ctx.node_size > 1) phases_[phase_count_++] = {Phase::node, 0};
  }
}

// After an error in the leaders' broadcast the node phases still run (the leader returns the
// error), so that no rank of the node waits for ever.
bool BcastRounds::advance(bool may_call_mpi, int* waiting_on) {
  while (offset_ < bytes_) {
    char* data = data_ + offset_;
    const std::uint64_t size = std::min(segment_, bytes_ - offset_);
    while (phase_ < phase_count_) {
      const Phase& p = phases_[phase_];
      if (p.kind == Phase::leaders && !may_call_mpi) return false;
      const bool done = p.kind == Phase::leaders ? leaders_step(data, size, p.source)
                        : single_copy_            ? single_copy_step(data, size, p.source, waiting_on)
                                                  : ring_.step(data, size, p.source, waiting_on);
      if (!done) return false;
      ++phase_;
      started_ = false;
      ring_.reset();
    }
    offset_ += segment_;
    phase_ = 0;
  }
  return true;
}

// Single copy: the source posts where its bytes are and waits for every reader's `done`; each
// reader, once it has seen the post, pulls them in pieces, one piece per reader group, in the
// rotating schedule. Pieces are large: every process_vm_readv pins pages and costs a system
// call. A refused read stops the job (single_copy.hpp).
bool BcastRounds::single_copy_step(char* data, std::uint64_t size, int source, int* waiting_on) {
  NodeShm& shm = *ctx_.channel.shm;
  if (!started_) {
    started_ = true;
    seq_ = ++ctx_.channel.seq;
    next_ = 0;
    if (ctx_.node_rank == source) {
      std::atomic<std::uint64_t>* posted = shm.posted(source);
      posted[0].store(reinterpret_cast<std::uintptr_t>(data), std::memory_order_relaxed);
      posted[1].store(size, std::memory_order_relaxed);
      posted[2].store(static_cast<std::uint64_t>(getpid()), std::memory_order_relaxed);
      shm.post(source).store(seq_, std::memory_order_release);
      count_post(ctx_, shm.post(source), seq_);
    }
  }
  if (ctx_.node_rank == source) {
    for (; next_ < ctx_.node_size; ++next_)
      if (next_ != source && !reached(shm.done(next_).load(std::memory_order_acquire), seq_)) {
        *waiting_on = next_;
        return false;
      }
    return true;
  }
  if (!reached(shm.post(source).load(std::memory_order_acquire), seq_)) {
    *waiting_on = source;
    return false;
  }
  count_read(ctx_, shm.post(source), seq_, source, size);
  std::atomic<std::uint64_t>* posted = shm.posted(source);
  const char* remote = reinterpret_cast<const char*>(posted[0].load(std::memory_order_relaxed));
  const pid_t pid = static_cast<pid_t>(posted[2].load(std::memory_order_relaxed));
  const ReaderGroups readers = groups_of_readers(ctx_, config_, source);
  const std::uint64_t groups = static_cast<std::uint64_t>(readers.count);
  const std::uint64_t piece = std::max<std::uint64_t>((size + groups - 1) / groups, 64 << 10);
  const std::uint64_t pieces = (size + piece - 1) / piece;
  for (std::uint64_t step = 0; step < pieces; ++step) {
    const std::uint64_t p = rotating_part(readers.group[static_cast<std::size_t>(ctx_.node_rank)], step, pieces);
    const std::size_t n = static_cast<std::size_t>(std::min(piece, size - p * piece));
    read_remote_or_stop(ctx_.comm, source, pid, remote + p * piece, data + p * piece, n,
                        "MCORECOLL_BCAST_CMA_MIN_BYTES");
  }
  shm.done(ctx_.node_rank).store(seq_, std::memory_order_release);
  return true;
}

// Node leaders, ranked by node index in the leaders' communicator.
bool BcastRounds::leaders_step(char* data, std::uint64_t size, int root_node) {
  const int n = static_cast<int>(size);
  const std::uint64_t sent = ctx_.node_index == root_node ? size : 0;
  if (blocking_) {
    count_network(MCORECOLL_NETWORK_BCAST, -1, sent);
    keep(PMPI_Bcast(data, n, MPI_BYTE, root_node, ctx_.leaders_comm));
    return true;
  }
  if (!started_) {
    started_ = true;
    leaders_.clear();
    count_network(MCORECOLL_NETWORK_BCAST, -1, sent);
    leaders_.post_library(
        [&](MPI_Request* request) { return PMPI_Ibcast(data, n, MPI_BYTE, root_node, ctx_.leaders_comm, request); });
  }
  return leaders_.test(&rc);
}

int bcast_shm(CommContext& ctx, const Config& config, void* buffer, int count,
              MPI_Datatype datatype, int root, std::uint64_t bytes, bool single_copy) {
  if (bytes == 0) return MPI_SUCCESS;  // nothing moves; every rank sees the same size
  MessageBytes msg(buffer, count, datatype, bytes);
  if (ctx.rank == root) msg.pack();
  Waiter waiter = Waiter::for_context(ctx, config);
  int waiting_on = -1, rc = MPI_SUCCESS;
  if (ctx.node_count == 1 && !single_copy) {
    // The rounds' one phase, the node's ring, without their driver: the bcasts of a few bytes
    // that dominate many programs pay for nothing else.
    NodeRingSteps ring(ctx, config, &waiter);
    const int source = ctx.places[static_cast<std::size_t>(root)].node_rank;
    run_rounds(waiter, [&] { return ring.step(msg.data(), bytes, source, &waiting_on); }, [&] { return ring.moves(); });
  } else {
    BcastRounds rounds(ctx, config, msg.data(), bytes, root, single_copy, true);
    run_rounds(waiter, [&] { return rounds.advance(true, &waiting_on); }, [&] { return rounds.moves(); });
    rc = rounds.rc;
  }
  if (ctx.rank != root) msg.unpack();
  return rc;
}

}  // namespace mcorecoll
