// MPI_Allgatherv, and its non-blocking and persistent forms: routed (entry/call_decision.hpp)
// and checked, then the staged allgatherv inside one node (allgatherv_shm.hpp; the operation of
// the other forms, allgather/iallgatherv_shm.hpp), the allgatherv across nodes
// (allgather/allgatherv_across_nodes.hpp, allgather/iallgatherv_across_nodes.hpp), or PMPI.
#include "allgather/allgather_bytes.hpp"
#include "allgather/allgatherv_across_nodes.hpp"
#include "allgather/allgatherv_shm.hpp"
#include "common/block_bytes.hpp"
#include "decisions/config.hpp"
#include "decisions/stats.hpp"
#include "entry/call_decision.hpp"
#include "entry/call_forms.hpp"
#include "entry/dispatch.hpp"
#include "pmpi_persistent.hpp"  // generated (wrappers/generate_bindings.py)
#include "allgather/iallgatherv_across_nodes.hpp"
#include "allgather/iallgatherv_shm.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {

namespace {

// MPI_Allgatherv's route, alike for its three forms; *own: this rank's send side in bytes.
Decision route_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                          const int* recvcounts, const int* displs, MPI_Datatype recvtype, MPI_Comm comm, Form form,
                          std::uint64_t* own) {
  const CommContext* intra = intra_context(comm);
  const int size = intra ? intra->size : 0;
  std::uint64_t largest = 0, total = 0;
  if (!intra || !displs ||
      // Every rank's block from the receive side every rank passes: the standard makes rank j's
      // recvcounts[j] x recvtype its send signature everywhere, so these are equal on every rank.
      !block_sizes(recvcounts, recvtype, size, &largest, &total))
    return handed_on(comm);
  // Decided by the largest block: the one that sizes the node's staging and the leaders' part.
  Decision d = decide(Collective::allgatherv, comm, largest, form);
  if (d.path != kPmpiPath && total > kMaxShmBytes) fall_back(d, Collective::allgatherv, "2 GiB or more in all");
  // Rank-local, like the MPI library's own checks: a program where only some ranks pass them is
  // erroneous under either.
  if (d.path != kPmpiPath && sendbuf != MPI_IN_PLACE &&
      (!signature_bytes(sendcount, sendtype, own) || null_buffer(sendbuf, *own, sendtype)))
    fall_back(d, Collective::allgatherv, "invalid send arguments");
  if (d.path != kPmpiPath && null_buffer(recvbuf, total, recvtype)) fall_back(d, Collective::allgatherv, "null buffer");
  return d;
}

// The operation of a non-blocking or persistent call that route_allgatherv() kept.
std::unique_ptr<Operation> make_operation(const Decision& d, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                          std::uint64_t own, void* recvbuf, const int* recvcounts, const int* displs,
                                          MPI_Datatype recvtype) {
  const Config& config = process_config().config;
  if (d.ctx->node_count > 1)
    return make_iallgatherv_across_nodes(*d.ctx, config, sendbuf, sendcount, sendtype, own, recvbuf, recvcounts,
                                         displs, recvtype);
  return make_iallgatherv(*d.ctx, config, sendbuf, sendcount, sendtype, own, recvbuf, recvcounts, displs, recvtype);
}

}  // namespace

int allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
               const int* displs, MPI_Datatype recvtype, MPI_Comm comm) {
  std::uint64_t own = 0;
  const Decision d = route_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                                      Form::blocking, &own);
  return blocking_call(
      Collective::allgatherv, d,
      [&] { return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm); },
      [&] {
        if (d.bytes == 0) return MPI_SUCCESS;
        CommContext& ctx = *d.ctx;
        const Config& config = process_config().config;
        AllgathervBytes sides(ctx, sendbuf, sendcount, sendtype, own, recvbuf, recvcounts, displs, recvtype);
        const char* out = sides.pack();
        int rc = MPI_SUCCESS;
        if (ctx.node_count > 1) rc = allgatherv_across_nodes(ctx, config, out, sides.recv);
        else allgatherv_node_bytes(ctx, config, out, sides.recv);
        sides.unpack();
        return rc;
      });
}

int iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                const int* displs, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  std::uint64_t own = 0;
  const Decision d = route_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                                      Form::nonblocking, &own);
  return nonblocking_call(
      Collective::allgatherv, d, request,
      [&] {
        return PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request);
      },
      [&] {
        return make_operation(d, sendbuf, sendcount, sendtype, own, recvbuf, recvcounts, displs, recvtype);
      });
}

int allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                    const int* displs, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  std::uint64_t own = 0;
  const Decision d = route_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                                      Form::persistent, &own);
  return persistent_call(
      Collective::allgatherv, d, request,
      [&] {
        return pmpi_allgatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, info,
                                    request);
      },
      [&] {
        return make_operation(d, sendbuf, sendcount, sendtype, own, recvbuf, recvcounts, displs, recvtype);
      });
}

}  // namespace mcorecoll
