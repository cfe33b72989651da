// MPI_Allreduce, MPI_Reduce, their non-blocking forms and their persistent ones: routed
// (entry/call_decision.hpp) and checked, then the staged reduction (reduce_shm.hpp,
// ireduce_shm.hpp), across nodes the leaders' composition (reduce_across_nodes.hpp,
// ireduce_across_nodes.hpp) or the lanes (lanes/reduce_lanes.hpp, every form), or PMPI.
#include "common/message_bytes.hpp"
#include "decisions/config.hpp"
#include "decisions/stats.hpp"
#include "entry/call_decision.hpp"
#include "entry/call_forms.hpp"
#include "entry/dispatch.hpp"
#include "lanes/reduce_lanes.hpp"
#include "pmpi_persistent.hpp"  // generated (wrappers/generate_bindings.py)
#include "reduction/combine.hpp"
#include "reduction/element_layout.hpp"
#include "reduction/ireduce_across_nodes.hpp"
#include "reduction/ireduce_shm.hpp"
#include "reduction/reduce_across_nodes.hpp"
#include "reduction/reduce_shm.hpp"
#include "reduction/reduction_checks.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {

// One call's arguments.
struct Reduction {
  const void* sendbuf;
  void* recvbuf;
  int count;
  MPI_Datatype type;
  MPI_Op op;
  int root;  // reduce: as the application passed it (MPI_ROOT, MPI_PROC_NULL on intercommunicators)
  MPI_Comm comm;
};

// Everything decided here is equal on every rank: the standard has them all pass the same
// count, datatype, op and root.
Decision route(Collective c, const Reduction& a, Form form, ElementLayout* layout) {
  std::uint64_t bytes = 0;
  if (a.comm == MPI_COMM_NULL || !signature_bytes(a.count, a.type, &bytes)) return handed_on(a.comm);
  Decision d = decide(c, a.comm, bytes, form);
  d.bytes = bytes;
  if (!d.ctx || d.path == kPmpiPath) return d;
  if (bytes > kMaxShmBytes) fall_back(d, c, "2 GiB or more");
  if (const char* refusal = staged_reduction_refusal(a.op, a.type, a.count, bytes, layout)) fall_back(d, c, refusal);
  if (d.path != kPmpiPath)
    if (const char* refusal = across_nodes_refusal(*d.ctx, a.op, *layout)) fall_back(d, c, refusal);
  if (d.path == kReductionLanes)
    if (const char* refusal = reduction_lanes_refusal(*d.ctx, c, a.op, *layout, form == Form::blocking))
      without_lanes(d, c, refusal);
  // The non-blocking and persistent steps may run where MPI may not be called, and a user op
  // or a derived type may be freed while they run: only what combine() does itself.
  if (form != Form::blocking && !combine_named_without_mpi(a.type, a.op))
    fall_back(d, c, "non-blocking or persistent: only predefined ops that mcorecoll combines itself "
                    "(SUM/PROD/MIN/MAX, bitwise and logical, on the common integer types; SUM/PROD on float and double)");
  if (c == Collective::reduce && (a.root < 0 || a.root >= d.ctx->size)) fall_back(d, c, "invalid root");
  const bool gets_result = c == Collective::allreduce || d.ctx->rank == a.root;
  if (d.path != kPmpiPath && ((gets_result && null_buffer(a.recvbuf, bytes, a.type)) ||
                               (a.sendbuf != MPI_IN_PLACE && null_buffer(a.sendbuf, bytes, a.type))))
    fall_back(d, c, "null buffer");
  name_node_algorithm(d, c, layout->image_bytes(static_cast<std::size_t>(a.count)));
  return d;
}

// The call the application made, as it made it: chosen by the collective, never by the root,
// which is negative on an intercommunicator (MPI_ROOT, MPI_PROC_NULL) for an MPI_Reduce too.
int pmpi(Collective c, const Reduction& a) {
  return c == Collective::allreduce ? PMPI_Allreduce(a.sendbuf, a.recvbuf, a.count, a.type, a.op, a.comm)
                                    : PMPI_Reduce(a.sendbuf, a.recvbuf, a.count, a.type, a.op, a.root, a.comm);
}

int blocking(Collective c, const Reduction& a) {
  ElementLayout layout;
  const Decision d = route(c, a, Form::blocking, &layout);
  return blocking_call(c, d, [&] { return pmpi(c, a); }, [&] {
    const Config& config = process_config().config;
    if (d.path == kReductionLanes)
      return reduce_lanes(*d.ctx, config, a.sendbuf, a.recvbuf, a.count, a.type, a.op, a.root, layout);
    if (d.ctx->node_count > 1)
      return reduce_across_nodes(*d.ctx, config, a.sendbuf, a.recvbuf, a.count, a.type, a.op, a.root, layout, d.bytes);
    return reduce_shm(*d.ctx, config, a.sendbuf, a.recvbuf, a.count, a.type, a.op, a.root, layout, d.path);
  });
}

// The operation of a non-blocking or persistent call that route() kept.
std::unique_ptr<Operation> make_operation(const Reduction& a, const Decision& d, const ElementLayout& layout) {
  const Config& config = process_config().config;
  if (d.path == kReductionLanes)
    return make_ireduce_lanes(*d.ctx, config, a.sendbuf, a.recvbuf, a.count, a.type, a.op, a.root, layout);
  if (d.ctx->node_count > 1)
    return make_ireduce_across_nodes(*d.ctx, config, a.sendbuf, a.recvbuf, a.count, a.type, a.op, a.root, layout,
                                     d.bytes);
  return make_ireduce(*d.ctx, config, a.sendbuf, a.recvbuf, a.count, a.type, a.op, a.root, layout, d.path);
}

// The non-blocking (`info` unused) or persistent form.
int with_operation(Form form, Collective c, const Reduction& a, MPI_Info info, MPI_Request* request) {
  ElementLayout layout;
  const Decision d = route(c, a, form, &layout);
  const bool all = c == Collective::allreduce;
  return operation_call(
      form, c, d, request,
      [&] {
        if (form == Form::persistent)
          return all ? pmpi_allreduce_init(a.sendbuf, a.recvbuf, a.count, a.type, a.op, a.comm, info, request)
                     : pmpi_reduce_init(a.sendbuf, a.recvbuf, a.count, a.type, a.op, a.root, a.comm, info, request);
        return all ? PMPI_Iallreduce(a.sendbuf, a.recvbuf, a.count, a.type, a.op, a.comm, request)
                   : PMPI_Ireduce(a.sendbuf, a.recvbuf, a.count, a.type, a.op, a.root, a.comm, request);
      },
      [&] { return make_operation(a, d, layout); },
      [&] {
        // A predefined op and type: nothing the application may free while the request lives.
        if (!combine_named_without_mpi(a.type, a.op)) return ReissuedOperation::Issue();
        return start_call(a.sendbuf, a.recvbuf, [c, a](MPI_Request* started) {
          return with_operation(Form::nonblocking, c, a, MPI_INFO_NULL, started);
        });
      });
}

}  // namespace

int allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return blocking(Collective::allreduce, {sendbuf, recvbuf, count, datatype, op, -1, comm});
}

int reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
           MPI_Comm comm) {
  return blocking(Collective::reduce, {sendbuf, recvbuf, count, datatype, op, root, comm});
}

int iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
               MPI_Request* request) {
  return with_operation(Form::nonblocking, Collective::allreduce, {sendbuf, recvbuf, count, datatype, op, -1, comm},
                        MPI_INFO_NULL, request);
}

int ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
            MPI_Comm comm, MPI_Request* request) {
  return with_operation(Form::nonblocking, Collective::reduce, {sendbuf, recvbuf, count, datatype, op, root, comm},
                        MPI_INFO_NULL, request);
}

int allreduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Info info, MPI_Request* request) {
  return with_operation(Form::persistent, Collective::allreduce, {sendbuf, recvbuf, count, datatype, op, -1, comm},
                        info, request);
}

int reduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return with_operation(Form::persistent, Collective::reduce, {sendbuf, recvbuf, count, datatype, op, root, comm},
                        info, request);
}

}  // namespace mcorecoll
