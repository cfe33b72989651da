// MPI_Reduce_scatter_block and MPI_Reduce_scatter, and their non-blocking and persistent forms:
// routed (staged_reduction_route.hpp) and checked, then the staged algorithm inside one node or
// the allreduce's composition across nodes (reduce_scatter_shm.hpp; the other forms' operation,
// ireduce_scatter_shm.hpp), the lanes across nodes (lanes/reduce_scatter_lanes.hpp), or PMPI.
#include <climits>
#include <memory>
#include <vector>

#include "calls/staged_reduction_route.hpp"
#include "decisions/config.hpp"
#include "entry/call_decision.hpp"
#include "entry/call_forms.hpp"
#include "entry/dispatch.hpp"
#include "lanes/reduce_lanes.hpp"
#include "lanes/reduce_scatter_lanes.hpp"
#include "node/comm_context.hpp"
#include "pmpi_persistent.hpp"  // generated (wrappers/generate_bindings.py)
#include "reduction/ireduce_scatter_shm.hpp"
#include "reduction/reduce_scatter_shm.hpp"

namespace mcorecoll {
namespace {

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
  const int* counts;  // every rank's block (MPI_Reduce_scatter's); null: every block `count`
  const void* input() const { return sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf; }
};

Decision route_reduce_scatter(Collective c, const ReduceScatter& a, Form form, ElementLayout* whole,
                              ElementLayout* block) {
  Decision d = staged_reduction_route(c, a.comm, a.total, a.type, a.op, a.input(), whole, form);
  // Across nodes (the allreduce's composition and the lanes alike: their node phases stage
  // elements of up to 128 bytes in every node's areas).
  if (d.path != kPmpiPath)
    if (const char* refusal = across_nodes_refusal(*d.ctx, a.op, *whole)) fall_back(d, c, refusal);
  if (d.path == kReduceScatterLanes)
    if (const char* refusal = reduction_lanes_refusal(*d.ctx, c, a.op, *whole, form == Form::blocking))
      without_lanes(d, c, refusal);
  std::uint64_t block_bytes = 0;
  if (d.path != kPmpiPath && (!signature_bytes(a.count, a.type, &block_bytes) ||
                               !element_layout(a.type, a.count, static_cast<std::size_t>(block_bytes), block) ||
                               null_buffer(a.recvbuf, block_bytes, a.type)))
    fall_back(d, c, "invalid receive arguments");
  return d;
}

// The forms of a reduce-scatter whose arguments are known; `pmpi` is the call as the
// application made it.
template <typename Pmpi>
int blocking(Collective c, const ReduceScatter& a, Pmpi pmpi) {
  ElementLayout whole, block;
  const Decision d = route_reduce_scatter(c, a, Form::blocking, &whole, &block);
  return blocking_call(c, d, pmpi, [&] {
    if (a.total == 0) return MPI_SUCCESS;
    const Config& config = process_config().config;
    if (d.path == kReduceScatterLanes)
      return reduce_scatter_lanes(*d.ctx, config, a.input(), a.recvbuf, static_cast<int>(a.total), a.counts, a.count,
                                  a.type, a.op, whole);
    if (d.ctx->node_count > 1)
      return reduce_scatter_across_nodes(*d.ctx, config, a.input(), a.recvbuf, static_cast<int>(a.total), a.first,
                                         a.count, a.type, a.op, whole, block, d.bytes);
    return reduce_scatter_shm(*d.ctx, config, a.input(), a.recvbuf, static_cast<int>(a.total), a.first, a.count,
                              a.type, a.op, whole, block);
  });
}

// The non-blocking or persistent form (`form`).
template <typename Pmpi>
int with_operation(Form form, Collective c, const ReduceScatter& a, MPI_Request* request, Pmpi pmpi) {
  ElementLayout whole, block;
  const Decision d = route_reduce_scatter(c, a, form, &whole, &block);
  return operation_call(
      form, c, d, request, pmpi,
      [&] {
        if (d.path == kReduceScatterLanes)
          return make_ireduce_scatter_lanes(*d.ctx, process_config().config, a.input(), a.recvbuf,
                                            static_cast<int>(a.total), a.counts, a.count, a.type, a.op, whole);
        return make_ireduce_scatter(*d.ctx, process_config().config, a.input(), a.recvbuf, static_cast<int>(a.total),
                                    a.first, a.count, a.type, a.op, whole, block, d.bytes);
      },
      [&] {
        // A predefined op and type: nothing the application may free while the request lives.
        if (!combine_named_without_mpi(a.type, a.op)) return ReissuedOperation::Issue();
        // The counts copied: an application may free its array once the initialization returned
        // (mpi4py does; the MPI libraries read it only there).
        auto counts = std::make_shared<const std::vector<int>>(
            a.counts ? std::vector<int>(a.counts, a.counts + d.ctx->size) : std::vector<int>());
        return start_call(a.sendbuf, a.recvbuf, [a, counts](MPI_Request* started) {
          return a.counts ? ireduce_scatter(a.sendbuf, a.recvbuf, counts->data(), a.type, a.op, a.comm, started)
                          : ireduce_scatter_block(a.sendbuf, a.recvbuf, a.count, a.type, a.op, a.comm, started);
        });
      });
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
  *a = {sendbuf, recvbuf, total, rank * recvcount, recvcount, type, op, comm, nullptr};
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
  *a = {sendbuf, recvbuf, total, static_cast<int>(first), recvcounts[rank], type, op, comm, recvcounts};
  return true;
}

}  // namespace

int reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm) {
  const auto pmpi = [&] { return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm); };
  ReduceScatter a{};
  if (block_arguments(sendbuf, recvbuf, recvcount, datatype, op, comm, &a))
    return blocking(Collective::reduce_scatter_block, a, pmpi);
  count_handed_on(Collective::reduce_scatter_block, comm, CallKind::blocking);
  return pmpi();
}

int reduce_scatter(const void* sendbuf, void* recvbuf, const int* recvcounts, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm) {
  const auto pmpi = [&] { return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm); };
  ReduceScatter a{};
  if (counts_arguments(sendbuf, recvbuf, recvcounts, datatype, op, comm, &a))
    return blocking(Collective::reduce_scatter, a, pmpi);
  count_handed_on(Collective::reduce_scatter, comm, CallKind::blocking);
  return pmpi();
}

int ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm, MPI_Request* request) {
  const auto pmpi = [&] {
    return PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request);
  };
  ReduceScatter a{};
  if (block_arguments(sendbuf, recvbuf, recvcount, datatype, op, comm, &a))
    return with_operation(Form::nonblocking, Collective::reduce_scatter_block, a, request, pmpi);
  count_handed_on(Collective::reduce_scatter_block, comm, CallKind::nonblocking);
  return pmpi();
}

int reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const auto pmpi = [&] {
    return pmpi_reduce_scatter_block_init(sendbuf, recvbuf, recvcount, datatype, op, comm, info, request);
  };
  ReduceScatter a{};
  if (block_arguments(sendbuf, recvbuf, recvcount, datatype, op, comm, &a))
    return with_operation(Form::persistent, Collective::reduce_scatter_block, a, request, pmpi);
  count_handed_on(Collective::reduce_scatter_block, comm, CallKind::persistent);
  return pmpi();
}

int ireduce_scatter(const void* sendbuf, void* recvbuf, const int* recvcounts, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, MPI_Request* request) {
  const auto pmpi = [&] { return PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request); };
  ReduceScatter a{};
  if (counts_arguments(sendbuf, recvbuf, recvcounts, datatype, op, comm, &a))
    return with_operation(Form::nonblocking, Collective::reduce_scatter, a, request, pmpi);
  count_handed_on(Collective::reduce_scatter, comm, CallKind::nonblocking);
  return pmpi();
}

int reduce_scatter_init(const void* sendbuf, void* recvbuf, const int* recvcounts, MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const auto pmpi = [&] {
    return pmpi_reduce_scatter_init(sendbuf, recvbuf, recvcounts, datatype, op, comm, info, request);
  };
  ReduceScatter a{};
  if (counts_arguments(sendbuf, recvbuf, recvcounts, datatype, op, comm, &a))
    return with_operation(Form::persistent, Collective::reduce_scatter, a, request, pmpi);
  count_handed_on(Collective::reduce_scatter, comm, CallKind::persistent);
  return pmpi();
}

}  // namespace mcorecoll
