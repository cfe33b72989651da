// MPI_Allgatherv, and its non-blocking and persistent forms (the MPI library's in this version):
// routed (entry/call_decision.hpp) and checked, then the staged allgatherv inside one node
// (allgatherv_shm.hpp) or PMPI.
#include "allgather/allgatherv_shm.hpp"
#include "common/block_bytes.hpp"
#include "decisions/config.hpp"
#include "decisions/stats.hpp"
#include "entry/call_decision.hpp"
#include "entry/dispatch.hpp"
#include "entry/pmpi_persistent.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {

int allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
               const int* displs, MPI_Datatype recvtype, MPI_Comm comm) {
  int size = 0, inter = 0;
  std::uint64_t largest = 0, total = 0;
  if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter ||
      PMPI_Comm_size(comm, &size) != MPI_SUCCESS || !displs ||
      // Every rank's block from the receive side every rank passes: the standard makes rank j's
      // recvcounts[j] x recvtype its send signature everywhere, so these are equal on every rank.
      !block_sizes(recvcounts, recvtype, size, &largest, &total))
    return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  Decision d = decide_node_only(Collective::allgatherv, comm, largest, Form::blocking);
  if (d.path != kPmpiPath && total > kMaxShmBytes) fall_back(d, Collective::allgatherv, "2 GiB or more in all");
  // Rank-local, like the MPI library's own checks: a program where only some ranks pass them is
  // erroneous under either.
  std::uint64_t own = 0;
  if (d.path != kPmpiPath && sendbuf != MPI_IN_PLACE &&
      (!signature_bytes(sendcount, sendtype, &own) || null_buffer(sendbuf, own, sendtype)))
    fall_back(d, Collective::allgatherv, "invalid send arguments");
  if (d.path != kPmpiPath && null_buffer(recvbuf, total, recvtype)) fall_back(d, Collective::allgatherv, "null buffer");
  complete_earlier_operations(d);
  if (d.count) count_call(Collective::allgatherv, d.path, d.bytes);
  if (d.path == kPmpiPath)
    return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  if (largest == 0) return MPI_SUCCESS;
  BlockBytes recv(recvbuf, size, recvcounts, displs, recvtype);
  const int me = d.ctx->rank;
  if (sendbuf == MPI_IN_PLACE) {
    recv.pack(me);
    allgatherv_node_bytes(*d.ctx, process_config().config, recv.data(me), recv);
    recv.unpack_all_but(me);
  } else {
    MessageBytes send(const_cast<void*>(sendbuf), sendcount, sendtype, own);
    send.pack();
    allgatherv_node_bytes(*d.ctx, process_config().config, send.data(), recv);
    recv.unpack_all_but(-1);
  }
  return MPI_SUCCESS;
}

int iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                const int* displs, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  const Decision d = decide_node_only(Collective::allgatherv, comm, 0, Form::nonblocking);
  if (d.count) count_call(Collective::allgatherv, kPmpiPath, 0, CallKind::nonblocking);
  return PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request);
}

int allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                    const int* displs, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const Decision d = decide_node_only(Collective::allgatherv, comm, 0, Form::persistent);
  if (d.count) count_call(Collective::allgatherv, kPmpiPath, 0, CallKind::persistent);
  return pmpi_allgatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, info,
                              request);
}

}  // namespace mcorecoll
