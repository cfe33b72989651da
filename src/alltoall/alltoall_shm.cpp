#include "alltoall/alltoall_shm.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "decisions/config.hpp"
#include "node/call_areas.hpp"
#include "node/node_shm.hpp"
#include "node/single_copy.hpp"
#include "node/wait.hpp"
#include "node/comm_context.hpp"
#include "node/transfer_count.hpp"

namespace mcorecoll {
namespace {

// Kept on the communicator (its kept states) from one call to the next: at node leaders across
// nodes, this node's outgoing tiles packed for the exchange; single copy in place, the send
// data as it was, which peers read from.
struct AlltoallRooms {
  std::vector<char> exchange, send_copy;
};
AlltoallRooms& alltoall_rooms(CommContext& ctx) { return ctx.kept.get<AlltoallRooms>(); }

// Copies this rank's tiles of the round (bytes `offset`.. of each outgoing block) into its
// half of its staging area and posts them.
void stage_round(CommContext& ctx, NodeShm& shm, const Round& round, const char* out, std::uint64_t block,
                 std::uint64_t offset) {
  char* mine = const_cast<char*>(round.staged_by(ctx.node_rank));
  for (int dst = 0; dst < ctx.size; ++dst)
    std::memcpy(mine + static_cast<std::size_t>(dst) * round.len, out + dst * block + offset, round.len);
  shm.post(ctx.node_rank).store(round.seq, std::memory_order_release);
  count_post(ctx, shm.post(ctx.node_rank), round.seq);
}

// Node leader, across nodes, once every rank of the node has posted the round: the tiles for
// other nodes packed by destination node, then source node rank, then destination, into
// the kept exchange room, with the counts and displacements (bytes) of the alltoallv among the
// leaders. Node A sends node B |A| * |B| tiles and receives as many back: one set of counts
// and displacements serves both directions.
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
  std::vector<char>& exchange = alltoall_rooms(ctx).exchange;
  exchange.resize(total);
  char* out = exchange.data();
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

// Copies this rank's tile from node rank `r`'s staging area into the receive bytes.
void copy_from_staging(const CommContext& ctx, const Round& round, int r, char* recv, std::uint64_t block,
                       std::uint64_t offset) {
  const std::vector<int>& mates = ctx.node_members[static_cast<std::size_t>(ctx.node_index)];
  std::memcpy(recv + mates[static_cast<std::size_t>(r)] * block + offset,
              round.staged_by(r) + static_cast<std::size_t>(ctx.rank) * round.len, round.len);
}

// Copies this rank's tiles from other nodes out of the inbox, where tile (remote source s,
// node rank d) sits at (remote_index[s] * node_size + d) * len.
void copy_from_inbox(const CommContext& ctx, NodeShm& shm, const Round& round, char* recv, std::uint64_t block,
                     std::uint64_t offset) {
  const char* inbox = shm.inbox(round.h);
  const std::size_t local = static_cast<std::size_t>(ctx.node_size);
  for (int src = 0; src < ctx.size; ++src) {
    const int remote = ctx.remote_index[static_cast<std::size_t>(src)];
    if (remote < 0) continue;
    const std::size_t at = (static_cast<std::size_t>(remote) * local + static_cast<std::size_t>(ctx.node_rank)) * round.len;
    std::memcpy(recv + src * block + offset, inbox + at, round.len);
  }
}

// Single copy: posts this rank's send data `out` for operation `seq`.
void post_send_data(CommContext& ctx, const char* out, std::uint64_t seq) {
  std::atomic<std::uint64_t>* posted = ctx.channel.shm->posted(ctx.node_rank);
  posted[0].store(reinterpret_cast<std::uintptr_t>(out), std::memory_order_relaxed);
  posted[2].store(static_cast<std::uint64_t>(getpid()), std::memory_order_relaxed);
  ctx.channel.shm->post(ctx.node_rank).store(seq, std::memory_order_release);
  count_post(ctx, ctx.channel.shm->post(ctx.node_rank), seq);
}

// Single copy: this rank's block from node rank `r` (its own from `out`) into its place in
// `recv`, once r has posted. A refused read stops the job.
void pull_block(CommContext& ctx, int r, std::uint64_t seq, const char* out, char* recv, std::uint64_t block) {
  const std::vector<int>& mates = ctx.node_members[static_cast<std::size_t>(ctx.node_index)];
  const std::uint64_t my_offset = static_cast<std::uint64_t>(ctx.rank) * block;
  char* to = recv + static_cast<std::uint64_t>(mates[static_cast<std::size_t>(r)]) * block;
  if (r == ctx.node_rank) {
    std::memcpy(to, out + my_offset, block);
    return;
  }
  count_read(ctx, ctx.channel.shm->post(r), seq, r, block);
  std::atomic<std::uint64_t>* theirs = ctx.channel.shm->posted(r);
  const char* from = reinterpret_cast<const char*>(theirs[0].load(std::memory_order_relaxed));
  read_remote_or_stop(ctx.comm, r, static_cast<pid_t>(theirs[2].load(std::memory_order_relaxed)),
                      from + my_offset, to, block, "MCORECOLL_ALLTOALL_CMA_MIN_BYTES");
}

}  // namespace

const char* alltoall_out(AlltoallBytes& sides, bool single_copy, std::vector<char>& copy) {
  MessageBytes &recv = sides.recv, &send = sides.send;
  const std::uint64_t total = send.size();
  if (single_copy) {
    if (!sides.in_place || !send.contiguous()) return send.data();
    copy.assign(send.data(), send.data() + total);  // peers must read the blocks as they were
    return copy.data();
  }
  if (sides.in_place && !recv.contiguous()) std::memcpy(recv.data(), send.data(), total);
  return sides.in_place ? recv.data() : send.data();
}

AlltoallRounds::AlltoallRounds(CommContext& ctx, const Config& config, const char* out, char* recv,
                               std::uint64_t block, bool single_copy, Waiter* waiter)
    : ctx_(ctx), config_(config), out_(out), recv_(recv), block_(block), single_copy_(single_copy),
      waiter_(waiter) {}

bool AlltoallRounds::advance(bool may_call_mpi, int* waiting_on) {
  if (block_ == 0) return true;
  return single_copy_ ? single_copy_step(waiting_on) : staged_step(may_call_mpi, waiting_on);
}

// The staged rounds. Each stage returns false where it would wait.
bool AlltoallRounds::staged_step(bool may_call_mpi, int* waiting_on) {
  if (!begun_) {
    if (waiter_) staging_ = staging_areas(ctx_, config_, *waiter_, block_);
    else if (!try_staging_areas(ctx_, config_, block_, &staging_)) return *waiting_on = ctx_.channel.lease_waits_for, false;
    begun_ = true;
    tile_ = tile_bytes(staging_, ctx_.size);
  }
  NodeShm& shm = *ctx_.channel.shm;
  const bool across_nodes = ctx_.node_count > 1;
  // The stages in their order, each falling through to the next: a round that waits nowhere
  // runs straight through.
  while (offset_ < block_) {
    if (stage_ == Stage::stage) {
      if (!round_) round_ = next_round(ctx_, staging_, std::min(tile_, block_ - offset_));
      // This half (and this half of the inbox) is free once every rank of the node has read
      // the last round that used it.
      int busy = rank_using_half(ctx_, shm, *round_);
      for (unsigned polls = 0; busy >= 0 && waiter_; busy = rank_using_half(ctx_, shm, *round_)) waiter_->backoff(polls);
      if (busy >= 0) return *waiting_on = busy, false;
      stage_round(ctx_, shm, *round_, out_, block_, offset_);
      reads_.emplace(ctx_.node_rank, ctx_.node_size, round_->seq, config_.alltoall_readers);
      stage_ = across_nodes && ctx_.node_rank == 0 ? Stage::exchange : Stage::gather;
    }
    if (stage_ == Stage::exchange) {
      // Node leader, across nodes: once every rank of the node has staged the round, sends each
      // other node the tiles its ranks get from this node and receives theirs straight into the
      // inbox.
      for (int r = 1; r < ctx_.node_size; ++r)
        if (!arrived(waiter_, shm.post(r), round_->seq, r, waiting_on)) return false;
      if (!may_call_mpi) return false;
      pack_exchange(ctx_, *round_, counts_, displs_);
#if MCORECOLL_COUNT_TRANSFERS
      std::uint64_t sent = 0;  // this round's tiles for the other nodes
      for (std::size_t k = 0; k < counts_.size(); ++k)
        if (static_cast<int>(k) != ctx_.node_index) sent += static_cast<std::uint64_t>(counts_[k]);
      count_network(MCORECOLL_NETWORK_ALLTOALLV, -1, sent);
#endif
      char* inbox = shm.inbox(round_->h);
      exchange_.clear();
      if (waiter_) {
        keep(PMPI_Alltoallv(alltoall_rooms(ctx_).exchange.data(), counts_.data(), displs_.data(), MPI_BYTE, inbox,
                            counts_.data(), displs_.data(), MPI_BYTE, ctx_.leaders_comm));
      } else {
        exchange_.post_library([&](MPI_Request* request) {
          return PMPI_Ialltoallv(alltoall_rooms(ctx_).exchange.data(), counts_.data(), displs_.data(), MPI_BYTE, inbox,
                                 counts_.data(), displs_.data(), MPI_BYTE, ctx_.leaders_comm, request);
        });
      }
      stage_ = Stage::exchange_test;
    }
    if (stage_ == Stage::exchange_test) {
      // After an error the node is still told (the leader reports it): no rank waits for ever.
      if (exchange_.pending() && (!may_call_mpi || !exchange_.test(&rc))) return false;
      shm.delivered().store(round_->seq, std::memory_order_release);
      stage_ = Stage::gather;
    }
    if (stage_ == Stage::gather) {
      const auto read = [&](int r) {
        count_read(ctx_, shm.post(r), round_->seq, r, round_->len);
        copy_from_staging(ctx_, *round_, r, recv_, block_, offset_);
      };
      if (!read_all(shm, read, waiting_on)) return false;
      stage_ = Stage::inbox;
    }
    // Stage::inbox
    if (across_nodes) {
      if (!arrived(waiter_, shm.delivered(), round_->seq, 0, waiting_on)) return false;
      copy_from_inbox(ctx_, shm, *round_, recv_, block_, offset_);
    }
    shm.done(ctx_.node_rank).store(round_->seq, std::memory_order_release);
    ctx_.channel.last_stage_seq[round_->h] = round_->seq;
    offset_ += round_->len;
    round_.reset();
    stage_ = Stage::stage;
  }
  return true;
}

// Single copy: post this rank's send data, pull every peer's block for this rank as they post
// theirs, then wait until every peer is done reading this rank's data: only then may the
// caller have its buffer back.
bool AlltoallRounds::single_copy_step(int* waiting_on) {
  NodeShm& shm = *ctx_.channel.shm;
  if (!begun_) {
    begun_ = true;
    seq_ = ++ctx_.channel.seq;
    post_send_data(ctx_, out_, seq_);
    reads_.emplace(ctx_.node_rank, ctx_.node_size, seq_, config_.alltoall_readers);
  }
  if (!read_all_) {
    if (!read_all(shm, [&](int r) { pull_block(ctx_, r, seq_, out_, recv_, block_); }, waiting_on)) return false;
    read_all_ = true;
    shm.done(ctx_.node_rank).store(seq_, std::memory_order_release);
  }
  for (; peer_ < ctx_.node_size; ++peer_)
    if (peer_ != ctx_.node_rank && !arrived(waiter_, shm.done(peer_), seq_, peer_, waiting_on)) return false;
  return true;
}

int alltoall_shm(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount,
                 MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                 std::uint64_t block, bool single_copy) {
  if (block == 0) return MPI_SUCCESS;
  AlltoallBytes sides(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, ctx.size,
                      block * static_cast<std::uint64_t>(ctx.size));
  sides.send.pack();
  const char* out = alltoall_out(sides, single_copy, alltoall_rooms(ctx).send_copy);
  Waiter waiter = Waiter::for_context(ctx, config);
  AlltoallRounds rounds(ctx, config, out, sides.recv.data(), block, single_copy, &waiter);
  int waiting_on = -1;
  rounds.advance(true, &waiting_on);  // with the waiter, over after one advance
  sides.recv.unpack();
  return rounds.rc;
}

}  // namespace mcorecoll
