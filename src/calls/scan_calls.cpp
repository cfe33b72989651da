// MPI_Scan and MPI_Exscan, and their non-blocking and persistent forms: routed
// (staged_reduction_route.hpp) and checked, then the scan inside one node (lines or staged:
// scan_shm.hpp; the other forms' operation, iscan_shm.hpp), across nodes of consecutive ranks
// (scan_across_nodes.hpp, iscan_across_nodes.hpp), or PMPI.
#include "calls/staged_reduction_route.hpp"
#include "decisions/config.hpp"
#include "entry/call_decision.hpp"
#include "entry/call_forms.hpp"
#include "entry/dispatch.hpp"
#include "node/comm_context.hpp"
#include "pmpi_persistent.hpp"  // generated (wrappers/generate_bindings.py)
#include "reduction/iscan_across_nodes.hpp"
#include "reduction/iscan_shm.hpp"
#include "reduction/scan_across_nodes.hpp"
#include "reduction/scan_shm.hpp"

namespace mcorecoll {
namespace {

// A scan's route, alike for its three forms (nullopt-like: d.path pmpi for the library's).
Decision route_scan(Collective c, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                    MPI_Comm comm, Form form, ElementLayout* layout) {
  if (!intra_context(comm) || count < 0) return handed_on(comm);
  const void* input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  Decision d = staged_reduction_route(c, comm, static_cast<std::uint64_t>(count), type, op, input, layout, form);
  // An exscan's receive buffer is not significant at rank 0 (the standard), which may pass
  // null: checked there, rank 0 alone would go to PMPI and the others wait for it.
  const bool significant = !(c == Collective::exscan && d.ctx && d.ctx->rank == 0 && sendbuf != MPI_IN_PLACE);
  if (d.path != kPmpiPath && significant && null_buffer(recvbuf, d.bytes, type)) fall_back(d, c, "null buffer");
  if (d.path != kPmpiPath) name_node_algorithm(d, c, layout->image_bytes(static_cast<std::size_t>(count)));
  if (d.path == kPmpiPath || d.ctx->node_count == 1) return d;
  // A prefix follows rank order for every op: node by node only where the nodes hold blocks of
  // consecutive ranks.
  if (!d.ctx->nodes_in_rank_order) fall_back(d, c, "across nodes whose ranks are not consecutive");
  // Every node must scan alike: the smallest staging half any node can fall back to holds an
  // element of a line.
  if (d.path != kPmpiPath && layout->extent > kLineBytes) fall_back(d, c, "across nodes: elements larger than 128 bytes");
  return d;
}

// The forms of MPI_Scan (c scan) and MPI_Exscan (c exscan); `pmpi` is the call as the
// application made it.
template <typename Pmpi>
int blocking(Collective c, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
             MPI_Comm comm, Pmpi pmpi) {
  ElementLayout layout;
  const Decision d = route_scan(c, sendbuf, recvbuf, count, type, op, comm, Form::blocking, &layout);
  return blocking_call(c, d, pmpi, [&] {
    if (count == 0) return MPI_SUCCESS;
    const void* input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    const Config& config = process_config().config;
    if (d.ctx->node_count > 1)
      return scan_across_nodes(*d.ctx, config, c == Collective::exscan, input, recvbuf, count, type, op, layout);
    return scan_shm(*d.ctx, config, c == Collective::exscan, input, recvbuf, count, type, op, layout, d.path);
  });
}

// The non-blocking or persistent form (`form`).
// A persistent start made as the non-blocking call (entry/reissued_operation.hpp), where nothing
// it names may be freed by the application: a predefined op and type.
ReissuedOperation::Issue scan_start(Collective c, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                                    MPI_Op op, MPI_Comm comm) {
  if (!combine_named_without_mpi(type, op)) return {};
  return start_call(sendbuf, recvbuf, [=](MPI_Request* started) {
    return c == Collective::scan ? iscan(sendbuf, recvbuf, count, type, op, comm, started)
                                 : iexscan(sendbuf, recvbuf, count, type, op, comm, started);
  });
}

template <typename Pmpi>
int with_operation(Form form, Collective c, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                   MPI_Op op, MPI_Comm comm, MPI_Request* request, Pmpi pmpi) {
  ElementLayout layout;
  const Decision d = route_scan(c, sendbuf, recvbuf, count, type, op, comm, form, &layout);
  return operation_call(form, c, d, request, pmpi, [&]() -> std::unique_ptr<Operation> {
    if (d.ctx->node_count > 1)
      return make_iscan_across_nodes(*d.ctx, process_config().config, c == Collective::exscan, sendbuf, recvbuf,
                                     count, type, op, layout);
    return make_iscan(*d.ctx, process_config().config, c == Collective::exscan, sendbuf, recvbuf, count, type, op,
                      layout, d.path);
  }, [&] { return scan_start(c, sendbuf, recvbuf, count, type, op, comm); });
}

}  // namespace

int scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return blocking(Collective::scan, sendbuf, recvbuf, count, datatype, op, comm,
                  [&] { return PMPI_Scan(sendbuf, recvbuf, count, datatype, op, comm); });
}

int exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return blocking(Collective::exscan, sendbuf, recvbuf, count, datatype, op, comm,
                  [&] { return PMPI_Exscan(sendbuf, recvbuf, count, datatype, op, comm); });
}

int iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
          MPI_Request* request) {
  return with_operation(Form::nonblocking, Collective::scan, sendbuf, recvbuf, count, datatype, op, comm, request,
                     [&] { return PMPI_Iscan(sendbuf, recvbuf, count, datatype, op, comm, request); });
}

int iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
            MPI_Request* request) {
  return with_operation(Form::nonblocking, Collective::exscan, sendbuf, recvbuf, count, datatype, op, comm, request,
                     [&] { return PMPI_Iexscan(sendbuf, recvbuf, count, datatype, op, comm, request); });
}

int scan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              MPI_Info info, MPI_Request* request) {
  return with_operation(Form::persistent, Collective::scan, sendbuf, recvbuf, count, datatype, op, comm, request,
                    [&] { return pmpi_scan_init(sendbuf, recvbuf, count, datatype, op, comm, info, request); });
}

int exscan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                MPI_Info info, MPI_Request* request) {
  return with_operation(Form::persistent, Collective::exscan, sendbuf, recvbuf, count, datatype, op, comm, request,
                    [&] { return pmpi_exscan_init(sendbuf, recvbuf, count, datatype, op, comm, info, request); });
}

}  // namespace mcorecoll
