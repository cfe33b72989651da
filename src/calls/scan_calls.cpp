// MPI_Reduce_scatter_block, MPI_Reduce_scatter, MPI_Scan and MPI_Exscan, and their non-blocking
// and persistent forms: routed (entry/call_decision.hpp) and checked (reduction_checks.hpp),
// then the staged algorithm inside one node (reduce_scatter_shm.hpp, scan_shm.hpp; the other
// forms' operations ireduce_scatter_shm.hpp, reduction/iscan_shm.hpp) or PMPI.
#include <climits>

#include "decisions/config.hpp"
#include "decisions/stats.hpp"
#include "entry/call_decision.hpp"
#include "entry/dispatch.hpp"
#include "pmpi_persistent.hpp"  // generated (wrappers/generate_bindings.py)
#include "reduction/iscan_shm.hpp"
#include "reduction/combine.hpp"
#include "reduction/ireduce_scatter_shm.hpp"
#include "reduction/reduce_scatter_shm.hpp"
#include "reduction/reduction_checks.hpp"
#include "reduction/scan_shm.hpp"
#include "common/message_bytes.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {


// A reduction of `total` elements on every rank (its vector); every value decided here is
// equal on every rank (the standard has them pass the same counts, datatype and op).
Decision route(Collective c, MPI_Comm comm, std::uint64_t total, MPI_Datatype type, MPI_Op op, const void* input,
               ElementLayout* whole, Form form = Form::blocking) {
  std::uint64_t bytes = 0;
  if (total > static_cast<std::uint64_t>(INT_MAX) || !signature_bytes(static_cast<int>(total), type, &bytes))
    return handed_on(comm);
  Decision d = decide_node_only(c, comm, bytes, form, true);
  if (d.path == kPmpiPath) return d;
  if (bytes > kMaxShmBytes) fall_back(d, c, "2 GiB or more");
  if (const char* refusal = staged_reduction_refusal(op, type, static_cast<int>(total), bytes, whole))
    fall_back(d, c, refusal);
  if (d.path != kPmpiPath && null_buffer(input, bytes, type)) fall_back(d, c, "null buffer");
  // The other forms' steps may run where MPI may not be called, and a user op or a derived
  // type may be freed while they run: only what combine() does itself (as for iallreduce).
  if (form != Form::blocking && !(is_named(type) && combine_without_mpi(type, op)))
    fall_back(d, c, "non-blocking or persistent: only predefined ops that mcorecoll combines itself");
  return d;
}

// A reduce-scatter once its counts are known: the whole vector of `total` elements on every
// rank, this rank's block of `count` elements from element `first`.
struct ReduceScatter {
  const void* sendbuf;
  void* recvbuf;
  std::uint64_t total;
  int first, count;
  MPI_Datatype type;
  MPI_Op op;
  MPI_Comm comm;
  const void* input() const { return sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf; }
};

Decision route_reduce_scatter(Collective c, const ReduceScatter& a, Form form, ElementLayout* whole,
                              ElementLayout* block) {
  Decision d = route(c, a.comm, a.total, a.type, a.op, a.input(), whole, form);
  std::uint64_t block_bytes = 0;
  if (d.path != kPmpiPath && (!signature_bytes(a.count, a.type, &block_bytes) ||
                               !element_layout(a.type, a.count, static_cast<std::size_t>(block_bytes), block) ||
                               null_buffer(a.recvbuf, block_bytes, a.type)))
    fall_back(d, c, "invalid receive arguments");
  return d;
}

int reduce_scatter_common(Collective c, const ReduceScatter& a) {
  ElementLayout whole, block;
  const Decision d = route_reduce_scatter(c, a, Form::blocking, &whole, &block);
  complete_earlier_operations(d);
  if (d.count) count_call(c, d.path, d.bytes);
  if (d.path == kPmpiPath) return -1;
  if (a.total == 0) return MPI_SUCCESS;
  return reduce_scatter_shm(*d.ctx, process_config().config, a.input(), a.recvbuf, static_cast<int>(a.total), a.first,
                            a.count, a.type, a.op, whole, block);
}

// The non-blocking (request) and persistent (info, request) forms; -1 where the call is the
// MPI library's (counted).
int reduce_scatter_operation(Collective c, const ReduceScatter& a, Form form, MPI_Request* request) {
  ElementLayout whole, block;
  const Decision d = route_reduce_scatter(c, a, form, &whole, &block);
  const CallKind kind = form == Form::persistent ? CallKind::persistent : CallKind::nonblocking;
  if (form == Form::persistent) complete_earlier_operations(d);
  if (d.path == kPmpiPath) {
    if (d.count) count_call(c, d.path, d.bytes, kind);
    return -1;
  }
  auto operation = make_ireduce_scatter(*d.ctx, process_config().config, a.input(), a.recvbuf,
                                        static_cast<int>(a.total), a.first, a.count, a.type, a.op, whole, block);
  if (form == Form::persistent) return make_persistent(c, d, std::move(operation), request);  // counts each start
  if (d.count) count_call(c, d.path, d.bytes, kind);
  return post(d, std::move(operation), request);
}

// The arguments of MPI_Reduce_scatter_block; false where the MPI library must judge them (an
// intercommunicator, a negative count), as it does without mcorecoll.
bool block_arguments(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                     ReduceScatter* a) {
  const CommContext* intra = intra_context(comm);
  if (!intra || recvcount < 0) return false;
  const int size = intra->size, rank = intra->rank;
  const std::uint64_t total = static_cast<std::uint64_t>(recvcount) * static_cast<std::uint64_t>(size);
  if (total > static_cast<std::uint64_t>(INT_MAX)) return false;  // also keeps rank * recvcount an int
  *a = {sendbuf, recvbuf, total, rank * recvcount, recvcount, type, op, comm};
  return true;
}

// The arguments of MPI_Reduce_scatter: recvcounts are the same on every rank, so whether they
// are valid is too.
bool counts_arguments(const void* sendbuf, void* recvbuf, const int* recvcounts, MPI_Datatype type, MPI_Op op,
                      MPI_Comm comm, ReduceScatter* a) {
  const CommContext* intra = intra_context(comm);
  if (!intra || !recvcounts) return false;
  const int size = intra->size, rank = intra->rank;
  std::uint64_t total = 0, first = 0;
  for (int r = 0; r < size; ++r) {
    if (recvcounts[r] < 0) return false;
    if (r == rank) first = total;
    total += static_cast<std::uint64_t>(recvcounts[r]);
  }
  if (total > static_cast<std::uint64_t>(INT_MAX)) return false;
  *a = {sendbuf, recvbuf, total, static_cast<int>(first), recvcounts[rank], type, op, comm};
  return true;
}

// A scan's route, alike for its three forms (nullopt-like: d.path pmpi for the library's).
Decision route_scan(Collective c, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                    MPI_Comm comm, Form form, ElementLayout* layout) {
  if (!intra_context(comm) || count < 0) return handed_on(comm);
  const void* input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  Decision d = route(c, comm, static_cast<std::uint64_t>(count), type, op, input, layout, form);
  if (d.path != kPmpiPath && null_buffer(recvbuf, d.bytes, type)) fall_back(d, c, "null buffer");
  return d;
}

int scan_common(Collective c, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                MPI_Comm comm) {
  ElementLayout layout;
  const Decision d = route_scan(c, sendbuf, recvbuf, count, type, op, comm, Form::blocking, &layout);
  complete_earlier_operations(d);
  if (d.count) count_call(c, d.path, d.bytes);
  if (d.path == kPmpiPath) return -1;
  if (count == 0) return MPI_SUCCESS;
  const void* input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  return scan_shm(*d.ctx, process_config().config, c == Collective::exscan, input, recvbuf, count, type, op, layout);
}

// The non-blocking (request) and persistent (info, request) forms of a scan.
int scan_operation(Collective c, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                   MPI_Comm comm, Form form, MPI_Info info, MPI_Request* request) {
  ElementLayout layout;
  const Decision d = route_scan(c, sendbuf, recvbuf, count, type, op, comm, form, &layout);
  const bool exclusive = c == Collective::exscan;
  if (form == Form::persistent) complete_earlier_operations(d);
  if (d.path == kPmpiPath) {
    if (d.count) count_call(c, d.path, d.bytes, form == Form::persistent ? CallKind::persistent : CallKind::nonblocking);
    if (form == Form::nonblocking)
      return exclusive ? PMPI_Iexscan(sendbuf, recvbuf, count, type, op, comm, request)
                       : PMPI_Iscan(sendbuf, recvbuf, count, type, op, comm, request);
    return exclusive ? pmpi_exscan_init(sendbuf, recvbuf, count, type, op, comm, info, request)
                     : pmpi_scan_init(sendbuf, recvbuf, count, type, op, comm, info, request);
  }
  auto operation = make_iscan(*d.ctx, process_config().config, exclusive, sendbuf, recvbuf, count, type, op, layout);
  if (form == Form::persistent) return make_persistent(c, d, std::move(operation), request);
  if (d.count) count_call(c, d.path, d.bytes, CallKind::nonblocking);
  return post(d, std::move(operation), request);
}

}  // namespace

// -1 from the common parts: the call is the MPI library's.

int reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm) {
  ReduceScatter a{};
  if (block_arguments(sendbuf, recvbuf, recvcount, datatype, op, comm, &a)) {
    const int rc = reduce_scatter_common(Collective::reduce_scatter_block, a);
    if (rc != -1) return rc;  // -1: routed to PMPI, counted
    return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
  }
  count_handed_on(Collective::reduce_scatter_block, comm, CallKind::blocking);
  return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
}

int reduce_scatter(const void* sendbuf, void* recvbuf, const int* recvcounts, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm) {
  ReduceScatter a{};
  if (counts_arguments(sendbuf, recvbuf, recvcounts, datatype, op, comm, &a)) {
    const int rc = reduce_scatter_common(Collective::reduce_scatter, a);
    if (rc != -1) return rc;  // -1: routed to PMPI, counted
    return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
  }
  count_handed_on(Collective::reduce_scatter, comm, CallKind::blocking);
  return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
}

int scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  const int rc = scan_common(Collective::scan, sendbuf, recvbuf, count, datatype, op, comm);
  return rc != -1 ? rc : PMPI_Scan(sendbuf, recvbuf, count, datatype, op, comm);
}

int exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  const int rc = scan_common(Collective::exscan, sendbuf, recvbuf, count, datatype, op, comm);
  return rc != -1 ? rc : PMPI_Exscan(sendbuf, recvbuf, count, datatype, op, comm);
}

// The non-blocking and persistent forms.

int ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm, MPI_Request* request) {
  ReduceScatter a{};
  if (block_arguments(sendbuf, recvbuf, recvcount, datatype, op, comm, &a)) {
    const int rc = reduce_scatter_operation(Collective::reduce_scatter_block, a, Form::nonblocking, request);
    if (rc != -1) return rc;  // -1: routed to PMPI, counted
    return PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request);
  }
  count_handed_on(Collective::reduce_scatter_block, comm, CallKind::nonblocking);
  return PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request);
}

int reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  ReduceScatter a{};
  if (block_arguments(sendbuf, recvbuf, recvcount, datatype, op, comm, &a)) {
    const int rc = reduce_scatter_operation(Collective::reduce_scatter_block, a, Form::persistent, request);
    if (rc != -1) return rc;  // -1: routed to PMPI, counted
    return pmpi_reduce_scatter_block_init(sendbuf, recvbuf, recvcount, datatype, op, comm, info, request);
  }
  count_handed_on(Collective::reduce_scatter_block, comm, CallKind::persistent);
  return pmpi_reduce_scatter_block_init(sendbuf, recvbuf, recvcount, datatype, op, comm, info, request);
}

int ireduce_scatter(const void* sendbuf, void* recvbuf, const int* recvcounts, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, MPI_Request* request) {
  ReduceScatter a{};
  if (counts_arguments(sendbuf, recvbuf, recvcounts, datatype, op, comm, &a)) {
    const int rc = reduce_scatter_operation(Collective::reduce_scatter, a, Form::nonblocking, request);
    if (rc != -1) return rc;  // -1: routed to PMPI, counted
    return PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
  }
  count_handed_on(Collective::reduce_scatter, comm, CallKind::nonblocking);
  return PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
}

int reduce_scatter_init(const void* sendbuf, void* recvbuf, const int* recvcounts, MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  ReduceScatter a{};
  if (counts_arguments(sendbuf, recvbuf, recvcounts, datatype, op, comm, &a)) {
    const int rc = reduce_scatter_operation(Collective::reduce_scatter, a, Form::persistent, request);
    if (rc != -1) return rc;  // -1: routed to PMPI, counted
    return pmpi_reduce_scatter_init(sendbuf, recvbuf, recvcounts, datatype, op, comm, info, request);
  }
  count_handed_on(Collective::reduce_scatter, comm, CallKind::persistent);
  return pmpi_reduce_scatter_init(sendbuf, recvbuf, recvcounts, datatype, op, comm, info, request);
}

int iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
          MPI_Request* request) {
  return scan_operation(Collective::scan, sendbuf, recvbuf, count, datatype, op, comm, Form::nonblocking,
                        MPI_INFO_NULL, request);
}

int scan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              MPI_Info info, MPI_Request* request) {
  return scan_operation(Collective::scan, sendbuf, recvbuf, count, datatype, op, comm, Form::persistent, info,
                        request);
}

int iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
            MPI_Request* request) {
  return scan_operation(Collective::exscan, sendbuf, recvbuf, count, datatype, op, comm, Form::nonblocking,
                        MPI_INFO_NULL, request);
}

int exscan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                MPI_Info info, MPI_Request* request) {
  return scan_operation(Collective::exscan, sendbuf, recvbuf, count, datatype, op, comm, Form::persistent, info,
                        request);
}

}  // namespace mcorecoll
