#include "alltoall/alltoallv_across_nodes.hpp"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <optional>

#include "alltoall/alltoallv_shm.hpp"
#include "common/scratch_room.hpp"
#include "exchange/rooted_rounds.hpp"
#include "node/comm_context.hpp"
#include "node/transfer_count.hpp"
#include "node/wait.hpp"

namespace mcorecoll {
namespace {

// A package's words: 4 bytes (a rank's blocks, and what it receives, stay below 2^31 bytes on
// mcorecoll's path: kMaxShmBytes).
using Word = std::uint32_t;
constexpr std::uint64_t kWord = sizeof(Word);

std::uint64_t word(const char* at, std::size_t i) {
  Word w;
  std::memcpy(&w, at + i * kWord, kWord);
  return w;
}

void put_word(char* at, std::size_t i, std::uint64_t w) {
  const Word v = static_cast<Word>(w);
  std::memcpy(at + i * kWord, &v, kWord);
}

// Calls f(node, rank) for the ranks of the other nodes in the packages' order: node by node,
// node rank by node rank.
template <typename F>
void for_remote(const CommContext& ctx, F f) {
  for (int k = 0; k < ctx.node_count; ++k)
    if (k != ctx.node_index)
      for (const int r : ctx.node_members[static_cast<std::size_t>(k)]) f(k, r);
}

int as_count(std::uint64_t bytes) { return static_cast<int>(std::min<std::uint64_t>(bytes, INT_MAX)); }

// A package: what its rank receives from each node (a word a node, its own 0), then a word a
// rank of the other nodes (the size of its block for that rank), then those blocks.
struct Package {
  Package(const char* at, int nodes, std::size_t remote) : at(at), nodes(static_cast<std::size_t>(nodes)),
                                                           blocks(at + (nodes + remote) * kWord) {}
  std::uint64_t from_node(int k) const { return word(at, static_cast<std::size_t>(k)); }
  std::uint64_t size(std::size_t i) const { return word(at, nodes + i); }
  const char* at;
  std::size_t nodes;
  const char* blocks;
};

}  // namespace

AlltoallvShare alltoallv_share(const CommContext& ctx, std::uint64_t largest, const std::uint64_t* send_sizes,
                               const std::uint64_t* recv_sizes) {
  AlltoallvShare s;
  s.largest = largest;
  std::uint64_t remote = 0, sent = 0;
  for (int r = 0; r < ctx.size; ++r) {
    const std::size_t i = static_cast<std::size_t>(r);
    if (ctx.places[i].node == ctx.node_index) {
      if (r != ctx.rank) s.inside = std::max(s.inside, send_sizes[i]);
      continue;
    }
    ++remote;
    sent += send_sizes[i];
    s.incoming += recv_sizes[i];
  }
  s.package = kWord * (static_cast<std::uint64_t>(ctx.node_count) + remote) + sent;
  return s;
}

AlltoallvSizes agree_alltoallv_sizes(CommContext& ctx, const Config& config, const AlltoallvShare& mine) {
  AlltoallvSizes s;
  Waiter waiter = Waiter::for_context(ctx, config);
  const bool leader = ctx.node_rank == 0;
  std::uint64_t answer[4] = {0, 0, 0, 0};  // largest, package_most, incoming_most, inside_most
  {
    HeaderLine shares(ctx, waiter);
    const std::uint64_t rest[3] = {mine.package, mine.incoming, mine.inside};
    shares.post(mine.largest, true, sizeof rest, [&](char* to, std::uint64_t, std::uint64_t) {
      copy_bytes(to, rest, sizeof rest);
    });
    if (leader) {
      s.packages.resize(static_cast<std::size_t>(ctx.node_size));
      std::uint64_t largest = 0, packages = 0, incoming = 0;
      for (int r = 0; r < ctx.node_size; ++r) {
        std::uint64_t theirs[3];
        const std::uint64_t h = r == 0 ? mine.largest : shares.header(r);
        copy_bytes(theirs, r == 0 ? rest : reinterpret_cast<const std::uint64_t*>(shares.data(r)), sizeof theirs);
        largest = std::max(largest, h);
        s.packages[static_cast<std::size_t>(r)] = theirs[0];
        packages += theirs[0];
        incoming += theirs[1];
        for (int x = 0; x < 3; ++x) answer[x + 1] = std::max(answer[x + 1], theirs[x]);
      }
      // The leaders' exchange counts in ints: a node's whole beyond that goes to the MPI library.
      if (packages > INT_MAX || incoming > INT_MAX) largest = kNotOurs;
      // In signed integers, kNotOurs the greatest (MPICH 4.0's MPI_MAX compares MPI_UINT64_T as
      // signed: doc/mpi-defects.md); sizes stay below 2^62.
      const std::int64_t own = largest == kNotOurs ? INT64_MAX : static_cast<std::int64_t>(largest);
      std::int64_t most = 0;
      count_network(MCORECOLL_NETWORK_REDUCTION, -1, sizeof own);
      const int rc = PMPI_Allreduce(&own, &most, 1, MPI_INT64_T, MPI_MAX, ctx.leaders_comm);
      answer[0] = rc != MPI_SUCCESS || most == INT64_MAX ? kNotOurs : static_cast<std::uint64_t>(most);
    }
  }
  HeaderLine second(ctx, waiter);
  second.post(answer[0], leader, 3 * sizeof answer[0], [&](char* to, std::uint64_t, std::uint64_t) {
    copy_bytes(to, answer + 1, 3 * sizeof answer[0]);
  });
  if (!leader) {
    answer[0] = second.header(0);
    copy_bytes(answer + 1, second.data(0), 3 * sizeof answer[0]);
  }
  s.largest = answer[0];
  s.package_most = answer[1];
  s.incoming_most = answer[2];
  s.inside_most = answer[3];
  return s;
}

AlltoallvAcrossNodesRounds::AlltoallvAcrossNodesRounds(CommContext& ctx, const Config& config,
                                                       const AlltoallvSizes& sizes, const SentBlocks& send,
                                                       BlockBytes& recv, AlltoallvRooms& rooms, bool blocking)
    : AcrossNodesPhases(ctx.node_rank == 0), ctx_(ctx), config_(config), sizes_(sizes), send_(send), recv_(recv),
      rooms_(rooms), blocking_(blocking) {
  for_remote(ctx, [&](int, int r) {
    ++remote_;
    incoming_ += recv.size(r);
  });
  // Phase 1's exchange: the blocks between the node's ranks, as inside one node.
  inside_.emplace(alltoallv_rounds(ctx, config, sizes.inside_most, &send, &recv));
}

std::uint64_t AlltoallvAcrossNodesRounds::moves() const {
  std::uint64_t m = phases_moved();
  for (const std::optional<ExchangeRounds>* r : {&inside_, &gather_, &scatter_})
    if (*r) m += (*r)->moves();
  return m;
}

// Phase 1, then phase 2: the node's blocks between its ranks, this rank's own, then this rank's
// package to its leader.
bool AlltoallvAcrossNodesRounds::node_step(bool, int* waiting_on) {
  if (!inside_->advance(waiting_on)) return false;
  if (!gather_) {
    const std::size_t me = static_cast<std::size_t>(ctx_.rank);
    copy_bytes(recv_.data(ctx_.rank), send_.where[me], std::min(send_.bytes[me], recv_.size(ctx_.rank)));
    pack();
    gather_.emplace(gather_rounds(ctx_, config_, /*node rank*/ 0, sizes_.package_most, rooms_.package.data(), package_,
                                  gathered_ ? &*gathered_ : nullptr));
  }
  if (!gather_->advance(waiting_on)) return false;
  if (gathered_) copy_bytes(gathered_->data(0), rooms_.package.data(), std::min(package_, gathered_->size(0)));
  return true;
}

// A package: what its rank receives from each node (a word a node, its own 0), a word for each
// rank of the other nodes (its block's size), then those blocks, in the order of for_remote().
void AlltoallvAcrossNodesRounds::pack() {
  const int nodes = ctx_.node_count;
  const std::uint64_t head = kWord * (static_cast<std::uint64_t>(nodes) + remote_);
  package_ = head;
  for_remote(ctx_, [&](int, int r) { package_ += send_.bytes[static_cast<std::size_t>(r)]; });
  char* package = scratch_room(rooms_.package, package_);
  std::vector<std::uint64_t> from_node(static_cast<std::size_t>(nodes), 0);
  for_remote(ctx_, [&](int k, int r) { from_node[static_cast<std::size_t>(k)] += recv_.size(r); });
  for (int k = 0; k < nodes; ++k) put_word(package, static_cast<std::size_t>(k), from_node[static_cast<std::size_t>(k)]);
  std::size_t i = static_cast<std::size_t>(nodes);
  std::uint64_t at = head;
  for_remote(ctx_, [&](int, int r) {
    const std::size_t d = static_cast<std::size_t>(r);
    put_word(package, i++, send_.bytes[d]);
    copy_bytes(package + at, send_.where[d], send_.bytes[d]);
    at += send_.bytes[d];
  });
  if (!leader()) return;
  std::uint64_t total = 0;
  counts_.clear();
  displs_.clear();
  for (const std::uint64_t b : sizes_.packages) {
    counts_.push_back(as_count(b));
    displs_.push_back(as_count(total));
    total += b;
  }
  gathered_.emplace(scratch_room(rooms_.gathered, std::max<std::uint64_t>(total, 1)), ctx_.node_size, counts_.data(),
                    displs_.data(), MPI_BYTE);
}

// Phase 3: a leader's messages, one for each other node, posted (blocking: done); then what
// came cut into its ranks' parts.
bool AlltoallvAcrossNodesRounds::leaders_step() {
  if (!posted_) {
    post();
    posted_ = true;
    if (blocking_) {
      keep(PMPI_Alltoallv(rooms_.wire.data(), send_counts_.data(), send_displs_.data(), MPI_BYTE, rooms_.arrived.data(),
                          recv_counts_.data(), recv_displs_.data(), MPI_BYTE, ctx_.leaders_comm));
      cut();
      return true;
    }
    leaders_.clear();
    leaders_.post_library([&](MPI_Request* r) {
      return PMPI_Ialltoallv(rooms_.wire.data(), send_counts_.data(), send_displs_.data(), MPI_BYTE,
                             rooms_.arrived.data(), recv_counts_.data(), recv_displs_.data(), MPI_BYTE,
                             ctx_.leaders_comm, r);
    });
  }
  int exchanged = MPI_SUCCESS;
  if (!leaders_.test(&exchanged)) return false;
  keep(exchanged);
  cut();
  return true;
}

// The message to node k: for each of its ranks in turn, every node rank's block for it. A
// package's blocks lie in the order of its sizes, so each node rank's cursor only moves forward.
void AlltoallvAcrossNodesRounds::post() {
  const int n = ctx_.node_size, nodes = ctx_.node_count, me = ctx_.node_index;
  std::vector<Package> packages;
  for (int j = 0; j < n; ++j) packages.emplace_back(gathered_->data(j), nodes, remote_);
  send_counts_.assign(static_cast<std::size_t>(nodes), 0);
  send_displs_ = recv_counts_ = recv_displs_ = send_counts_;
  std::uint64_t sent = 0;
  for (int pass = 0; pass < 2; ++pass) {  // the sizes, then the bytes
    char* wire = pass ? scratch_room(rooms_.wire, std::max<std::uint64_t>(sent, 1)) : nullptr;
    std::vector<std::uint64_t> cursor(packages.size(), 0);
    std::uint64_t at = 0;
    std::size_t i = 0;  // index among the remote ranks
    for (int k = 0; k < nodes; ++k) {
      if (k == me) continue;
      const std::size_t kk = static_cast<std::size_t>(k);
      send_displs_[kk] = as_count(at);
      for (std::size_t t = 0; t < ctx_.node_members[kk].size(); ++t, ++i)
        for (std::size_t j = 0; j < packages.size(); ++j) {
          const std::uint64_t b = packages[j].size(i);
          if (pass) copy_bytes(wire + at, packages[j].blocks + cursor[j], b);
          cursor[j] += b;
          at += b;
        }
      send_counts_[kk] = as_count(at - static_cast<std::uint64_t>(send_displs_[kk]));
    }
    sent = at;
  }
  std::uint64_t received = 0;
  for (int k = 0; k < nodes; ++k) {
    std::uint64_t bytes = 0;
    for (const Package& p : packages) bytes += p.from_node(k);
    recv_counts_[static_cast<std::size_t>(k)] = as_count(bytes);
    recv_displs_[static_cast<std::size_t>(k)] = as_count(received);
    received += bytes;
  }
  scratch_room(rooms_.arrived, std::max<std::uint64_t>(received, 1));
  count_network(MCORECOLL_NETWORK_ALLTOALLV, -1, sent);
}

// Node rank j's part: from each node in turn, its section of that node's message (the sections
// lie by node rank).
void AlltoallvAcrossNodesRounds::cut() {
  const int n = ctx_.node_size, nodes = ctx_.node_count;
  std::vector<Package> packages;
  for (int j = 0; j < n; ++j) packages.emplace_back(gathered_->data(j), nodes, remote_);
  part_counts_.clear();
  part_displs_.clear();
  std::uint64_t total = 0;
  for (const Package& p : packages) {
    std::uint64_t bytes = 0;
    for (int k = 0; k < nodes; ++k) bytes += p.from_node(k);
    part_counts_.push_back(as_count(bytes));
    part_displs_.push_back(as_count(total));
    total += bytes;
  }
  char* out = scratch_room(rooms_.parts, std::max<std::uint64_t>(total, 1));
  const char* arrived = rooms_.arrived.data();
  std::vector<std::uint64_t> filled(packages.size(), 0);
  for (int k = 0; k < nodes; ++k) {
    std::uint64_t at = static_cast<std::uint64_t>(recv_displs_[static_cast<std::size_t>(k)]);
    for (std::size_t j = 0; j < packages.size(); ++j) {
      const std::uint64_t b = packages[j].from_node(k);
      copy_bytes(out + static_cast<std::uint64_t>(part_displs_[j]) + filled[j], arrived + at, b);
      filled[j] += b;
      at += b;
    }
  }
  parts_.emplace(out, n, part_counts_.data(), part_displs_.data(), MPI_BYTE);
}

// Phase 4: each rank's part from its leader, then every block into its place.
bool AlltoallvAcrossNodesRounds::hand_out_step(bool, int* waiting_on) {
  char* mine = scratch_room(rooms_.incoming, std::max<std::uint64_t>(incoming_, 1));
  if (!scatter_)
    scatter_.emplace(
        scatter_rounds(ctx_, config_, /*node rank*/ 0, sizes_.incoming_most, mine, incoming_, parts_ ? &*parts_ : nullptr));
  if (!scatter_->advance(waiting_on)) return false;
  if (parts_) copy_bytes(mine, parts_->data(0), std::min(incoming_, parts_->size(0)));
  place();
  return true;
}

void AlltoallvAcrossNodesRounds::place() {
  const char* mine = rooms_.incoming.data();
  std::uint64_t at = 0;
  for_remote(ctx_, [&](int, int r) {
    copy_bytes(recv_.data(r), mine + at, recv_.size(r));
    at += recv_.size(r);
  });
}

int alltoallv_across_nodes(CommContext& ctx, const Config& config, const AlltoallvSizes& sizes,
                           const SentBlocks& send, BlockBytes& recv) {
  AlltoallvAcrossNodesRounds rounds(ctx, config, sizes, send, recv, ctx.kept.get<AlltoallvRooms>(), true);
  return rounds.run_to_end(ctx, config);
}

}  // namespace mcorecoll
