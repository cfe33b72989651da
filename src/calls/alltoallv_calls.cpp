// MPI_Alltoallv, and its non-blocking and persistent forms (MPI_Ialltoallv: the MPI library's):
// routed (entry/call_decision.hpp) and checked, then the staged alltoallv inside one node
// (alltoallv_shm.hpp; the persistent operation, alltoall/ialltoallv_shm.hpp), across nodes
// after its round (alltoall/alltoallv_across_nodes.hpp; the persistent operation,
// alltoall/ialltoallv_across_nodes.hpp), or PMPI.
#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "alltoall/alltoallv_across_nodes.hpp"
#include "alltoall/alltoallv_shm.hpp"
#include "common/block_bytes.hpp"
#include "decisions/config.hpp"
#include "decisions/stats.hpp"
#include "entry/call_decision.hpp"
#include "entry/call_forms.hpp"
#include "entry/dispatch.hpp"
#include "pmpi_persistent.hpp"  // generated (wrappers/generate_bindings.py)
#include "alltoall/ialltoallv_across_nodes.hpp"
#include "alltoall/ialltoallv_shm.hpp"
#include "exchange/staged_exchange.hpp"
#include "node/wait.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {

// With MPI_IN_PLACE: the receive buffer's blocks as they were before the call (what is sent).
struct BlocksBefore {
  explicit BlocksBefore(BlockBytes& recv) {
    recv.pack();
    for (int i = 0; i < recv.blocks(); ++i) copies.emplace_back(recv.data(i), recv.data(i) + recv.size(i));
  }
  char* data(int i) { return copies[static_cast<std::size_t>(i)].data(); }
  std::uint64_t size(int i) const { return copies[static_cast<std::size_t>(i)].size(); }
  std::vector<std::vector<char>> copies;
};


// Whether this rank's arguments are mcorecoll's to take (else the MPI library must judge them);
// *largest: the largest block it sends (with MPI_IN_PLACE: of its receive buffer).
bool valid_arguments(const void* sendbuf, const int* sendcounts, const int* sdispls, MPI_Datatype sendtype,
                     const void* recvbuf, const int* recvcounts, const int* rdispls, MPI_Datatype recvtype, int size,
                     std::uint64_t* largest) {
  std::uint64_t send_max = 0, send_total = 0, recv_max = 0, recv_total = 0;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const bool valid = rdispls && block_sizes(recvcounts, recvtype, size, &recv_max, &recv_total) &&
                     (in_place || (sdispls && block_sizes(sendcounts, sendtype, size, &send_max, &send_total))) &&
                     recv_total <= kMaxShmBytes && send_total <= kMaxShmBytes &&
                     !null_buffer(recvbuf, recv_total, recvtype) && (in_place || !null_buffer(sendbuf, send_total, sendtype));
  *largest = in_place ? recv_max : send_max;
  return valid;
}

// The header line of a call on mcorecoll's path so far (decide_before_agreeing): this rank's
// largest block (kNotOurs: arguments for the MPI library) and, where every one of its blocks
// fits a tile of the line, the blocks; then the route from the largest block of all, alike on
// every rank. Returns it (kNotOurs: PMPI).
template <typename Send>
std::uint64_t header_line(Decision& d, HeaderLine& line, std::uint64_t mine, std::uint64_t tile, Send* send) {
  const int n = d.ctx->node_size, me = d.ctx->node_rank;  // one node: node ranks are the ranks
  line.post(mine, mine <= tile, tile, [&](char* tiles, std::uint64_t, std::uint64_t len) {
    for (int r = 0; r < n; ++r)
      if (r != me) copy_bytes(tiles + r * len, send->data(r), send->size(r));
  });
  std::uint64_t largest = 0;
  for (int r = 0; r < n && largest != kNotOurs; ++r) largest = std::max(largest, r == me ? mine : line.header(r));
  if (largest == kNotOurs) fall_back(d, Collective::alltoallv, "arguments on some rank that the MPI library must judge");
  else route_agreed(d, Collective::alltoallv, largest);
  if (d.count) count_call(Collective::alltoallv, d.path, d.bytes);
  return largest;
}

// The data of a call that stayed on mcorecoll's path: from the line, or the staged rounds.
template <typename Send>
void move_blocks(CommContext& ctx, HeaderLine& line, std::uint64_t largest, std::uint64_t tile, Send& send,
                 BlockBytes& recv) {
  const int n = ctx.node_size, me = ctx.node_rank;
  if (largest <= tile) {
    for (int r = 0; r < n; ++r)
      if (r != me) copy_bytes(recv.data(r), line.data(r) + me * tile, std::min(recv.size(r), tile));
    copy_bytes(recv.data(me), send.data(me), std::min(send.size(me), recv.size(me)));
  } else {
    alltoallv_node_bytes(ctx, process_config().config, largest, send, recv);
  }
  recv.unpack_all_but(-1);
}

// A persistent alltoallv's share of the round across nodes, from its counts (valid: checked),
// in place from the receive side.
AlltoallvShare persistent_share(const CommContext& ctx, const void* sendbuf, const int* sendcounts,
                                MPI_Datatype sendtype, const int* recvcounts, MPI_Datatype recvtype,
                                std::uint64_t largest) {
  const bool in_place = sendbuf == MPI_IN_PLACE;
  std::uint64_t send_type = 0, recv_type = 0;
  signature_bytes(1, recvtype, &recv_type);
  if (!in_place) signature_bytes(1, sendtype, &send_type);
  std::vector<std::uint64_t> sent(static_cast<std::size_t>(ctx.size)), received(sent.size());
  for (std::size_t i = 0; i < sent.size(); ++i) {
    received[i] = static_cast<std::uint64_t>(recvcounts[i]) * recv_type;
    sent[i] = in_place ? received[i] : static_cast<std::uint64_t>(sendcounts[i]) * send_type;
  }
  return alltoallv_share(ctx, largest, sent.data(), received.data());
}

// Across nodes: the round that agrees on the largest block and on the node phases' sizes, the
// route alike on every rank from it, then the phases (alltoall/alltoallv_across_nodes.hpp).
int alltoallv_spanning(Decision& d, const void* sendbuf, const int* sendcounts, const int* sdispls,
                       MPI_Datatype sendtype, void* recvbuf, const int* recvcounts, const int* rdispls,
                       MPI_Datatype recvtype, MPI_Comm comm) {
  CommContext& ctx = *d.ctx;
  const Config& config = process_config().config;
  const int size = ctx.size;
  std::uint64_t mine = 0;
  const bool valid = valid_arguments(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                                     size, &mine);
  std::optional<BlockBytes> recv, send;
  std::optional<BlocksBefore> before;
  SentBlocks sent;
  sent.where.resize(static_cast<std::size_t>(size));
  sent.bytes.resize(sent.where.size());
  std::vector<std::uint64_t> recv_sizes(sent.where.size());
  AlltoallvShare share;
  share.largest = kNotOurs;
  if (valid) {
    recv.emplace(recvbuf, size, recvcounts, rdispls, recvtype);
    if (sendbuf == MPI_IN_PLACE) {
      before.emplace(*recv);
    } else {
      send.emplace(const_cast<void*>(sendbuf), size, sendcounts, sdispls, sendtype);
      send->pack();
    }
    for (int r = 0; r < size; ++r) {
      const std::size_t i = static_cast<std::size_t>(r);
      sent.where[i] = before ? before->data(r) : send->data(r);
      sent.bytes[i] = before ? before->size(r) : send->size(r);
      recv_sizes[i] = recv->size(r);
    }
    share = alltoallv_share(ctx, mine, sent.bytes.data(), recv_sizes.data());
  }
  const AlltoallvSizes sizes = agree_alltoallv_sizes(ctx, config, share);
  if (sizes.largest == kNotOurs)
    fall_back(d, Collective::alltoallv, "arguments on some rank that the MPI library must judge, or a node's bytes "
                                        "beyond the int counts of the leaders' exchange");
  else route_agreed(d, Collective::alltoallv, sizes.largest);
  if (d.count) count_call(Collective::alltoallv, d.path, d.bytes);
  if (d.path == kPmpiPath)
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  const int rc = alltoallv_across_nodes(ctx, config, sizes, sent, *recv);
  recv->unpack_all_but(-1);
  return rc;
}

}  // namespace

int alltoallv(const void* sendbuf, const int* sendcounts, const int* sdispls, MPI_Datatype sendtype, void* recvbuf,
              const int* recvcounts, const int* rdispls, MPI_Datatype recvtype, MPI_Comm comm) {
  if (handed_on_by_memory(Collective::alltoallv, comm)) return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  const CommContext* intra = intra_context(comm);
  if (!intra) {
    count_handed_on(Collective::alltoallv, comm, CallKind::blocking);
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  }
  const int size = intra->size;
  // Each rank knows only its own blocks' sizes: the ranks learn every rank's largest in the
  // header line (which also carries blocks small enough), across nodes in a round, before they
  // choose a path.
  Decision d = decide_before_agreeing(Collective::alltoallv, comm);
  complete_earlier_operations(d);
  if (d.path == kPmpiPath) {
    if (d.count) count_call(Collective::alltoallv, d.path, 0);
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  }
  if (d.ctx->node_count > 1)
    return alltoallv_spanning(d, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  std::uint64_t mine = 0;
  const bool valid = valid_arguments(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                                     size, &mine);
  Waiter waiter = Waiter::for_context(*d.ctx, process_config().config);
  HeaderLine line(*d.ctx, waiter);
  const std::uint64_t tile = kHeaderLineData / static_cast<std::uint64_t>(size);
  std::uint64_t largest = kNotOurs;
  if (!valid) {
    header_line<BlockBytes>(d, line, kNotOurs, tile, nullptr);
  } else {
    BlockBytes recv(recvbuf, size, recvcounts, rdispls, recvtype);
    if (in_place) {
      BlocksBefore before(recv);
      largest = header_line(d, line, mine, tile, &before);
      if (d.path != kPmpiPath) move_blocks(*d.ctx, line, largest, tile, before, recv);
    } else {
      BlockBytes send(const_cast<void*>(sendbuf), size, sendcounts, sdispls, sendtype);
      send.pack();
      largest = header_line(d, line, mine, tile, &send);
      if (d.path != kPmpiPath) move_blocks(*d.ctx, line, largest, tile, send, recv);
    }
  }
  if (d.path == kPmpiPath)
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  return MPI_SUCCESS;
}

int ialltoallv(const void* sendbuf, const int* sendcounts, const int* sdispls, MPI_Datatype sendtype, void* recvbuf,
               const int* recvcounts, const int* rdispls, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  const Decision d = decide_node_only(Collective::alltoallv, comm, 0, Form::nonblocking);
  if (d.count) count_call(Collective::alltoallv, kPmpiPath, 0, CallKind::nonblocking);
  return PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
                         request);
}

int alltoallv_init(const void* sendbuf, const int* sendcounts, const int* sdispls, MPI_Datatype sendtype,
                   void* recvbuf, const int* recvcounts, const int* rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                   MPI_Info info, MPI_Request* request) {
  const CommContext* intra = intra_context(comm);
  if (!intra) {
    count_handed_on(Collective::alltoallv, comm, CallKind::persistent);
    return pmpi_alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
                               info, request);
  }
  const int size = intra->size;
  // Each rank knows only its own blocks: the ranks agree on the largest when they initialize
  // (across nodes by the round, which gives the node phases' sizes too).
  std::uint64_t largest = 0, mine = 0;
  if (!valid_arguments(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, size, &mine))
    mine = kNotOurs;
  AlltoallvSizes sizes;
  const Decision d = decide_persistent_v(Collective::alltoallv, comm, mine, &largest,
                                         [&](CommContext& ctx, std::uint64_t agreed) {
                                           AlltoallvShare share;
                                           share.largest = kNotOurs;
                                           if (agreed != kNotOurs)
                                             share = persistent_share(ctx, sendbuf, sendcounts, sendtype, recvcounts,
                                                                      recvtype, agreed);
                                           sizes = agree_alltoallv_sizes(ctx, process_config().config, share);
                                           return sizes.largest;
                                         });
  return persistent_call(
      Collective::alltoallv, d, request,
      [&] {
        return pmpi_alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                                   comm, info, request);
      },
      [&] {
        if (d.ctx->node_count > 1)
          return make_ialltoallv_across_nodes(*d.ctx, process_config().config, std::move(sizes), sendbuf, sendcounts,
                                              sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype);
        return make_ialltoallv(*d.ctx, process_config().config, sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                               recvcounts, rdispls, recvtype, largest);
      });
}

}  // namespace mcorecoll
