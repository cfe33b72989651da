// MPI_Barrier, MPI_Ibarrier and MPI_Barrier_init: routed (entry/call_decision.hpp), then the
// shared-memory barrier or PMPI.
#include "barrier/barrier_shm.hpp"
#include "barrier/ibarrier_shm.hpp"
#include "decisions/config.hpp"
#include "decisions/stats.hpp"
#include "entry/call_decision.hpp"
#include "entry/dispatch.hpp"
#include "pmpi_persistent.hpp"  // generated (wrappers/generate_bindings.py)
#include "progress/operation.hpp"

namespace mcorecoll {
namespace {

Decision route_barrier(MPI_Comm comm, Form form) {
  if (comm == MPI_COMM_NULL) return handed_on(comm);
  return decide(Collective::barrier, comm, 0, form);
}

}  // namespace

int barrier(MPI_Comm comm) {
  const Decision d = route_barrier(comm, Form::blocking);
  complete_earlier_operations(d);
  if (d.count) count_call(Collective::barrier, d.path, 0);
  if (d.path == kPmpiPath) return PMPI_Barrier(comm);
  return barrier_shm(*d.ctx, process_config().config);
}

int ibarrier(MPI_Comm comm, MPI_Request* request) {
  const Decision d = route_barrier(comm, Form::nonblocking);
  if (d.count) count_call(Collective::barrier, d.path, 0, CallKind::nonblocking);
  if (d.path == kPmpiPath) return PMPI_Ibarrier(comm, request);
  return post(d, make_ibarrier(*d.ctx, process_config().config), request);
}

int barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const Decision d = route_barrier(comm, Form::persistent);
  complete_earlier_operations(d);
  if (d.path == kPmpiPath) {
    if (d.count) count_call(Collective::barrier, d.path, 0, CallKind::persistent);
    return pmpi_barrier_init(comm, info, request);
  }
  return make_persistent(Collective::barrier, d, make_ibarrier(*d.ctx, process_config().config), request);
}

}  // namespace mcorecoll
