// MPI_Alltoall, MPI_Ialltoall and MPI_Alltoall_init: routed (entry/call_decision.hpp) and
// checked, then the staged or single-copy alltoall, or PMPI.
#include "alltoall/alltoall_shm.hpp"
#include "alltoall/ialltoall_shm.hpp"
#include "decisions/config.hpp"
#include "decisions/stats.hpp"
#include "entry/call_decision.hpp"
#include "entry/call_forms.hpp"
#include "entry/dispatch.hpp"
#include "pmpi_persistent.hpp"  // generated (wrappers/generate_bindings.py)
#include "node/call_areas.hpp"
#include "node/node_setup.hpp"
#include "node/wait.hpp"
#include "progress/operation.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {

Decision route_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, Form form) {
  // The receive side always describes a block (the send side is ignored with MPI_IN_PLACE),
  // and its signature equals every rank's send block.
  std::uint64_t block = 0;
  if (comm == MPI_COMM_NULL || !signature_bytes(recvcount, recvtype, &block)) return handed_on(comm);
  Decision d = decide(Collective::alltoall, comm, block, form);
  if (!d.ctx) {  // PMPI: the statistics count every block
    int size = 0, inter = 0;
    PMPI_Comm_test_inter(comm, &inter);
    inter ? PMPI_Comm_remote_size(comm, &size) : PMPI_Comm_size(comm, &size);
    d.bytes = block * static_cast<std::uint64_t>(size);
    return d;
  }
  const std::uint64_t total = block * static_cast<std::uint64_t>(d.ctx->size);
  d.bytes = total;
  if (d.path == kPmpiPath) return d;
  // Bad send arguments are PMPI's to report.
  if (total > kMaxShmBytes) fall_back(d, Collective::alltoall, "2 GiB or more per rank");
  if (sendbuf != MPI_IN_PLACE && (sendcount < 0 || sendtype == MPI_DATATYPE_NULL))
    fall_back(d, Collective::alltoall, "invalid send arguments");
  if (d.path != kPmpiPath && (null_buffer(recvbuf, block, recvtype) ||
                               (sendbuf != MPI_IN_PLACE && null_buffer(sendbuf, block, sendtype))))
    fall_back(d, Collective::alltoall, "null buffer");
  const Config& config = process_config().config;
  // Single copy works inside one node (auto mode takes it only there); across nodes the
  // leaders exchange staged tiles.
  if (d.path == kAlltoallCma && d.ctx->node_count > 1) d.path = kAlltoallStaged;
  if (d.path == kAlltoallCma && !single_copy_allowed(*d.ctx, config))
    without_single_copy(d, Collective::alltoall, kAlltoallStaged);
  if (d.path == kAlltoallStaged) {
    // A round stages at least one byte per peer in half a staging area, and the leaders'
    // exchange counts a node's half areas in int. Both from values equal on all ranks.
    const std::uint64_t half = staging_area_bytes(config) / 2;
    if (static_cast<std::uint64_t>(d.ctx->size) > half)
      fall_back(d, Collective::alltoall, "more ranks than bytes in half a staging area (MCORECOLL_ALLTOALL_STAGE_BYTES)");
    if (d.ctx->node_count > 1 && static_cast<std::uint64_t>(d.ctx->max_node_size) * half > kMaxShmBytes)
      fall_back(d, Collective::alltoall, "a node's staging areas hold 2 GiB or more (MCORECOLL_ALLTOALL_STAGE_BYTES)");
  }
  return d;
}

std::uint64_t block_of(const Decision& d) { return d.bytes / static_cast<std::uint64_t>(d.ctx->size); }

std::unique_ptr<Operation> operation(const Decision& d, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                     void* recvbuf, int recvcount, MPI_Datatype recvtype) {
  return make_ialltoall(*d.ctx, process_config().config, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                        block_of(d), d.path == kAlltoallCma);
}

}  // namespace

int alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  const Decision d = route_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, Form::blocking);
  return blocking_call(
      Collective::alltoall, d,
      [&] { return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm); },
      [&] {
        return alltoall_shm(*d.ctx, process_config().config, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                            recvtype, block_of(d), d.path == kAlltoallCma);
      });
}

int ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  const Decision d = route_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, Form::nonblocking);
  return nonblocking_call(
      Collective::alltoall, d, request,
      [&] { return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request); },
      [&] { return operation(d, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype); });
}

int alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const Decision d = route_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, Form::persistent);
  return persistent_call(
      Collective::alltoall, d, request,
      [&] {
        return pmpi_alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request);
      },
      [&] {
        // The staging lease for this size now, while the initialization may wait.
        if (d.path == kAlltoallStaged && d.bytes > 0) {
          Waiter waiter = Waiter::for_context(*d.ctx, process_config().config);
          staging_areas(*d.ctx, process_config().config, waiter, block_of(d));
        }
        return operation(d, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
      },
      [=] {
        return start_call(sendbuf, recvbuf, [=, send = keep_type(sendtype, sendbuf != MPI_IN_PLACE),
                                             receive = keep_type(recvtype)](MPI_Request* started) {
          return ialltoall(sendbuf, sendcount, send->type(), recvbuf, recvcount, receive->type(), comm, started);
        });
      });
}

}  // namespace mcorecoll
