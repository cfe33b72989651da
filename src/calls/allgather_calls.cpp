// MPI_Allgather, MPI_Iallgather and MPI_Allgather_init: routed (entry/call_decision.hpp) and
// checked, then the node's allgather (lines, groups or staged: allgather_shm.hpp,
// iallgather_shm.hpp), across nodes the composition or the lanes (lanes/allgather_lanes.hpp), or
// PMPI.
#include <climits>

#include "allgather/allgather_across_nodes.hpp"
#include "allgather/allgather_shm.hpp"
#include "allgather/iallgather_across_nodes.hpp"
#include "allgather/iallgather_shm.hpp"
#include "decisions/config.hpp"
#include "decisions/stats.hpp"
#include "entry/call_decision.hpp"
#include "entry/call_forms.hpp"
#include "entry/dispatch.hpp"
#include "lanes/allgather_lanes.hpp"
#include "lanes/lanes.hpp"
#include "pmpi_persistent.hpp"  // generated (wrappers/generate_bindings.py)
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {

Decision route_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm, Form form) {
  // The receive side describes every rank's block (the send side is ignored in place).
  std::uint64_t block = 0;
  if (comm == MPI_COMM_NULL || !signature_bytes(recvcount, recvtype, &block)) return handed_on(comm);
  Decision d = decide(Collective::allgather, comm, block, form);
  if (!d.ctx) return d;
  // Before d.bytes becomes the whole: the route without the lanes is decided by the block.
  if (d.path == kAllgatherLanes)
    if (const char* refusal = lanes_refusal(*d.ctx, Collective::allgather, form == Form::blocking))
      without_lanes(d, Collective::allgather, refusal);
  name_node_algorithm(d, Collective::allgather, block);
  d.bytes = block * static_cast<std::uint64_t>(d.ctx->size);
  if (d.path == kPmpiPath) return d;
  if (d.bytes > kMaxShmBytes) fall_back(d, Collective::allgather, "2 GiB or more per rank");
  // The leaders' PMPI_Allgatherv counts bytes in ints.
  if (d.ctx->node_count > 1 && d.bytes > static_cast<std::uint64_t>(INT_MAX))
    fall_back(d, Collective::allgather, "across nodes: 2 GiB or more in all");
  if (sendbuf != MPI_IN_PLACE && (sendcount < 0 || sendtype == MPI_DATATYPE_NULL))
    fall_back(d, Collective::allgather, "invalid send arguments");
  if (d.path != kPmpiPath && (null_buffer(recvbuf, block, recvtype) ||
                               (sendbuf != MPI_IN_PLACE && null_buffer(sendbuf, block, sendtype))))
    fall_back(d, Collective::allgather, "null buffer");
  return d;
}

std::uint64_t block_of(const Decision& d) { return d.bytes / static_cast<std::uint64_t>(d.ctx->size); }

// The operation of a non-blocking or persistent call that route_allgather() kept.
std::unique_ptr<Operation> make_operation(const Decision& d, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                          void* recvbuf, int recvcount, MPI_Datatype recvtype) {
  const Config& config = process_config().config;
  if (d.path == kAllgatherLanes)
    return make_iallgather_lanes(*d.ctx, config, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                 block_of(d));
  if (d.ctx->node_count > 1)
    return make_iallgather_across_nodes(*d.ctx, config, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                        block_of(d));
  return make_iallgather(*d.ctx, config, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, block_of(d),
                         d.path);
}

}  // namespace

int allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
              MPI_Datatype recvtype, MPI_Comm comm) {
  const Decision d = route_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, Form::blocking);
  return blocking_call(
      Collective::allgather, d,
      [&] { return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm); },
      [&] {
        const Config& config = process_config().config;
        if (d.path == kAllgatherLanes)
          return allgather_lanes(*d.ctx, config, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, block_of(d));
        if (d.ctx->node_count > 1)
          return allgather_across_nodes(*d.ctx, config, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                        block_of(d));
        return allgather_shm(*d.ctx, config, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                             block_of(d), d.path);
      });
}

int iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  const Decision d = route_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                     Form::nonblocking);
  return nonblocking_call(
      Collective::allgather, d, request,
      [&] { return PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request); },
      [&] { return make_operation(d, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype); });
}

int allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const Decision d = route_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                     Form::persistent);
  return persistent_call(
      Collective::allgather, d, request,
      [&] {
        return pmpi_allgather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request);
      },
      [&] { return make_operation(d, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype); },
      [=] {
        return start_call(sendbuf, recvbuf, [=, send = keep_type(sendtype, sendbuf != MPI_IN_PLACE),
                                             receive = keep_type(recvtype)](MPI_Request* started) {
          return iallgather(sendbuf, sendcount, send->type(), recvbuf, recvcount, receive->type(), comm, started);
        });
      });
}

}  // namespace mcorecoll
