// MPI_Allreduce and MPI_Reduce: routed (entry/call_decision.hpp) and checked, then the staged
// reduction (reduce_shm.hpp) or PMPI. The non-blocking and persistent forms are not on the
// library's paths yet: MPI_Iallreduce and MPI_Ireduce are not intercepted.
#include "common/message_bytes.hpp"
#include "decisions/config.hpp"
#include "decisions/stats.hpp"
#include "entry/call_decision.hpp"
#include "entry/dispatch.hpp"
#include "reduction/element_layout.hpp"
#include "reduction/reduce_shm.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {
namespace {

bool predefined_op(MPI_Op op) {
  for (MPI_Op p : {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND, MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR,
                   MPI_MAXLOC, MPI_MINLOC})
    if (op == p) return true;
  return false;
}

// `root` -1: allreduce. Everything decided here is equal on every rank: the standard has them
// all pass the same count, datatype, op and root.
Decision route_reduction(Collective c, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                         int root, MPI_Comm comm, ElementLayout* layout) {
  std::uint64_t bytes = 0;
  if (comm == MPI_COMM_NULL || !signature_bytes(count, type, &bytes)) return {};
  Decision d = decide(c, comm, bytes, Form::blocking);
  d.bytes = bytes;
  if (!d.ctx || d.path == kPmpiPath) return d;
  if (d.ctx->node_count > 1) fall_back(d, c, "across nodes (not on mcorecoll's paths yet)");
  if (bytes > kMaxShmBytes) fall_back(d, c, "2 GiB or more");
  if (op == MPI_OP_NULL || op == MPI_REPLACE || op == MPI_NO_OP) fall_back(d, c, "an op only PMPI can judge");
  // Open MPI 4.1 and MPICH 4.0 refuse a predefined op on a derived datatype (MPI_ERR_OP): that
  // error is theirs to raise, through the communicator's handler.
  if (predefined_op(op) && !is_named(type)) fall_back(d, c, "a predefined op on a derived datatype");
  if (c == Collective::reduce && (root < 0 || root >= d.ctx->size)) fall_back(d, c, "invalid root");
  if (d.path != kPmpiPath && !element_layout(type, count, static_cast<std::size_t>(bytes), layout))
    fall_back(d, c, "a datatype whose data does not lie inside its extent");
  const bool gets_result = c == Collective::allreduce || d.ctx->rank == root;
  if (d.path != kPmpiPath && ((gets_result && null_buffer(recvbuf, bytes, type)) ||
                               (sendbuf != MPI_IN_PLACE && null_buffer(sendbuf, bytes, type))))
    fall_back(d, c, "null buffer");
  return d;
}

}  // namespace

int allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  ElementLayout layout;
  const Decision d = route_reduction(Collective::allreduce, sendbuf, recvbuf, count, datatype, op, -1, comm, &layout);
  complete_earlier_operations(d);
  if (d.count) count_call(Collective::allreduce, d.path, d.bytes);
  if (d.path == kPmpiPath) return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
  return reduce_shm(*d.ctx, process_config().config, sendbuf, recvbuf, count, datatype, op, -1, layout);
}

int reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
           MPI_Comm comm) {
  ElementLayout layout;
  const Decision d = route_reduction(Collective::reduce, sendbuf, recvbuf, count, datatype, op, root, comm, &layout);
  complete_earlier_operations(d);
  if (d.count) count_call(Collective::reduce, d.path, d.bytes);
  if (d.path == kPmpiPath) return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
  return reduce_shm(*d.ctx, process_config().config, sendbuf, recvbuf, count, datatype, op, root, layout);
}

}  // namespace mcorecoll
