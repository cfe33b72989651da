// MPI_Bcast, MPI_Ibcast and MPI_Bcast_init: routed (entry/call_decision.hpp) and checked, then
// the shared-memory bcast (ring or single copy), across nodes also the lanes, or PMPI.
#include "bcast/bcast_shm.hpp"
#include "bcast/ibcast_shm.hpp"
#include "decisions/config.hpp"
#include "decisions/stats.hpp"
#include "entry/call_decision.hpp"
#include "entry/call_forms.hpp"
#include "entry/dispatch.hpp"
#include "lanes/bcast_lanes.hpp"
#include "lanes/lanes.hpp"
#include "pmpi_persistent.hpp"  // generated (wrappers/generate_bindings.py)
#include "node/call_areas.hpp"
#include "node/node_setup.hpp"
#include "node/wait.hpp"
#include "progress/operation.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {

Decision route_bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, Form form) {
  std::uint64_t bytes = 0;
  if (comm == MPI_COMM_NULL || !signature_bytes(count, datatype, &bytes)) return handed_on(comm);
  Decision d = decide(Collective::bcast, comm, bytes, form);
  if (d.path == kPmpiPath) return d;
  if (bytes > kMaxShmBytes) fall_back(d, Collective::bcast, "message of 2 GiB or more");
  // A bad root is for the MPI library to report (inter: MPI_ROOT/MPI_PROC_NULL, already PMPI).
  if (root < 0 || root >= d.ctx->size) fall_back(d, Collective::bcast, "invalid root");
  if (d.path != kPmpiPath && null_buffer(buffer, bytes, datatype)) fall_back(d, Collective::bcast, "null buffer");
  if (d.path == kBcastLanes)
    if (const char* refusal = lanes_refusal(*d.ctx, Collective::bcast, form == Form::blocking))
      without_lanes(d, Collective::bcast, refusal);
  if (d.path == kBcastCma && !single_copy_allowed(*d.ctx, process_config().config))
    without_single_copy(d, Collective::bcast, kBcastRing);
  return d;
}

std::unique_ptr<Operation> operation(const Decision& d, void* buffer, int count, MPI_Datatype datatype, int root) {
  if (d.path == kBcastLanes)
    return make_ibcast_lanes(*d.ctx, process_config().config, buffer, count, datatype, root, d.bytes);
  return make_ibcast(*d.ctx, process_config().config, buffer, count, datatype, root, d.bytes, d.path == kBcastCma);
}

}  // namespace

int bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  const Decision d = route_bcast(buffer, count, datatype, root, comm, Form::blocking);
  return blocking_call(Collective::bcast, d, [&] { return PMPI_Bcast(buffer, count, datatype, root, comm); }, [&] {
    if (d.path == kBcastLanes) return bcast_lanes(*d.ctx, process_config().config, buffer, count, datatype, root, d.bytes);
    return bcast_shm(*d.ctx, process_config().config, buffer, count, datatype, root, d.bytes, d.path == kBcastCma);
  });
}

int ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request* request) {
  const Decision d = route_bcast(buffer, count, datatype, root, comm, Form::nonblocking);
  return nonblocking_call(Collective::bcast, d, request,
                          [&] { return PMPI_Ibcast(buffer, count, datatype, root, comm, request); },
                          [&] { return operation(d, buffer, count, datatype, root); });
}

int bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
               MPI_Request* request) {
  const Decision d = route_bcast(buffer, count, datatype, root, comm, Form::persistent);
  return persistent_call(
      Collective::bcast, d, request,
      [&] { return pmpi_bcast_init(buffer, count, datatype, root, comm, info, request); },
      [&] {
        // The ring's lease for this size now, while the initialization may wait.
        CommContext& ctx = *d.ctx;
        if (d.path == kBcastRing && d.bytes > 0 && ctx.node_size > 1) {
          Waiter waiter = Waiter::for_context(ctx, process_config().config);
          ring_cells(ctx, process_config().config, waiter, d.bytes);
        }
        return operation(d, buffer, count, datatype, root);
      },
      [=] {
        return start_call(buffer, nullptr, [=, type = keep_type(datatype)](MPI_Request* started) {
          return ibcast(buffer, count, type->type(), root, comm, started);
        });
      });
}

}  // namespace mcorecoll
