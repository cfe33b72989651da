// MPI_Barrier, MPI_Ibarrier and MPI_Barrier_init: routed (entry/call_decision.hpp), then the
// shared-memory barrier (poll or tree, barrier/barrier_shm.hpp) or PMPI.
#include "barrier/barrier_shm.hpp"
#include "barrier/ibarrier_shm.hpp"
#include "decisions/config.hpp"
#include "decisions/stats.hpp"
#include "entry/call_decision.hpp"
#include "entry/call_forms.hpp"
#include "entry/dispatch.hpp"
#include "pmpi_persistent.hpp"  // generated (wrappers/generate_bindings.py)
#include "progress/operation.hpp"

namespace mcorecoll {
namespace {

Decision route_barrier(MPI_Comm comm, Form form) {
  if (comm == MPI_COMM_NULL) return handed_on(comm);
  Decision d = decide(Collective::barrier, comm, 0, form);
  if (d.ctx) name_node_algorithm(d, Collective::barrier, 0);
  return d;
}

}  // namespace

int barrier(MPI_Comm comm) {
  const Decision d = route_barrier(comm, Form::blocking);
  return blocking_call(Collective::barrier, d, [&] { return PMPI_Barrier(comm); },
                       [&] { return barrier_shm(*d.ctx, process_config().config, d.path); });
}

int ibarrier(MPI_Comm comm, MPI_Request* request) {
  const Decision d = route_barrier(comm, Form::nonblocking);
  return nonblocking_call(Collective::barrier, d, request, [&] { return PMPI_Ibarrier(comm, request); },
                          [&] { return make_ibarrier(*d.ctx, process_config().config, d.path); });
}

int barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const Decision d = route_barrier(comm, Form::persistent);
  return persistent_call(Collective::barrier, d, request, [&] { return pmpi_barrier_init(comm, info, request); },
                         [&] { return make_ibarrier(*d.ctx, process_config().config, d.path); },
                         [comm] { return start_call(nullptr, nullptr, [comm](MPI_Request* r) { return ibarrier(comm, r); }); });
}

}  // namespace mcorecoll
