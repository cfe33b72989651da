// MPI_Alltoallv, and its non-blocking and persistent forms (the MPI library's in this version):
// routed (entry/call_decision.hpp) and checked, then the staged alltoallv inside one node
// (alltoallv_shm.hpp) or PMPI.
#include <limits>
#include <vector>

#include "alltoall/alltoallv_shm.hpp"
#include "common/block_bytes.hpp"
#include "decisions/config.hpp"
#include "decisions/stats.hpp"
#include "entry/call_decision.hpp"
#include "entry/dispatch.hpp"
#include "entry/pmpi_persistent.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {
namespace {

constexpr std::uint64_t kInvalid = std::numeric_limits<std::uint64_t>::max();

// The largest of `ranks` blocks of counts[i] x `type`, and their sum; false: arguments the MPI
// library must judge.
bool block_sizes(const int* counts, const int* displs, MPI_Datatype type, int ranks, std::uint64_t* largest,
                 std::uint64_t* total) {
  std::uint64_t type_bytes = 0;
  if (!counts || !displs || !signature_bytes(1, type, &type_bytes)) return false;
  *largest = *total = 0;
  for (int r = 0; r < ranks; ++r) {
    if (counts[r] < 0) return false;
    const std::uint64_t b = static_cast<std::uint64_t>(counts[r]) * type_bytes;
    *largest = std::max(*largest, b);
    *total += b;
  }
  return true;
}

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

}  // namespace

int alltoallv(const void* sendbuf, const int* sendcounts, const int* sdispls, MPI_Datatype sendtype, void* recvbuf,
              const int* recvcounts, const int* rdispls, MPI_Datatype recvtype, MPI_Comm comm) {
  int inter = 0, size = 0;
  if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter)
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  PMPI_Comm_size(comm, &size);
  // Each rank knows only its own blocks' sizes: the ranks agree on the largest (or that some
  // rank's arguments are the MPI library's to judge) before they choose a path.
  Decision d = decide_before_agreeing(Collective::alltoallv, comm);
  if (d.path != kPmpiPath) {
    std::uint64_t mine = kInvalid, send_max = 0, send_total = 0, recv_max = 0, recv_total = 0;
    const bool in_place = sendbuf == MPI_IN_PLACE;
    if (block_sizes(recvcounts, rdispls, recvtype, size, &recv_max, &recv_total) &&
        (in_place || block_sizes(sendcounts, sdispls, sendtype, size, &send_max, &send_total)) &&
        recv_total <= kMaxShmBytes && send_total <= kMaxShmBytes && !null_buffer(recvbuf, recv_total, recvtype) &&
        (in_place || !null_buffer(sendbuf, send_total, sendtype)))
      mine = in_place ? recv_max : send_max;
    const std::uint64_t agreed = agree_max(*d.ctx, process_config().config, mine);
    if (agreed == kInvalid) fall_back(d, Collective::alltoallv, "arguments on some rank that the MPI library must judge");
    else route_agreed(d, Collective::alltoallv, agreed);
  }
  complete_earlier_operations(d);
  if (d.count) count_call(Collective::alltoallv, d.path, d.bytes);
  if (d.path == kPmpiPath)
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  if (d.bytes == 0) return MPI_SUCCESS;
  const Config& config = process_config().config;
  BlockBytes recv(recvbuf, size, recvcounts, rdispls, recvtype);
  if (sendbuf == MPI_IN_PLACE) {
    BlocksBefore before(recv);
    alltoallv_node_bytes(*d.ctx, config, d.bytes, before, recv);
  } else {
    BlockBytes send(const_cast<void*>(sendbuf), size, sendcounts, sdispls, sendtype);
    send.pack();
    alltoallv_node_bytes(*d.ctx, config, d.bytes, send, recv);
  }
  recv.unpack_all_but(-1);
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
  const Decision d = decide_node_only(Collective::alltoallv, comm, 0, Form::persistent);
  if (d.count) count_call(Collective::alltoallv, kPmpiPath, 0, CallKind::persistent);
  return pmpi_alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
                             info, request);
}

}  // namespace mcorecoll
