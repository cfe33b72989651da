// MPI_Scatter and MPI_Scatterv, and their non-blocking and persistent forms (MPI_Iscatterv: the
// MPI library's): routed (entry/call_decision.hpp) and checked, then the staged scatter inside
// one node (scatter_shm.hpp; the operations of the other forms, scatter/iscatter_shm.hpp), the
// scatter across nodes (MPI_Scatter's forms: scatter/scatter_across_nodes.hpp,
// scatter/iscatter_across_nodes.hpp; scatterv's blocking and persistent forms after their ranks
// agree on the sizes), or PMPI.
#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

#include "common/block_bytes.hpp"
#include "decisions/config.hpp"
#include "decisions/stats.hpp"
#include "entry/call_decision.hpp"
#include "entry/call_forms.hpp"
#include "entry/dispatch.hpp"
#include "exchange/rooted_sizes.hpp"
#include "pmpi_persistent.hpp"  // generated (wrappers/generate_bindings.py)
#include "exchange/staged_exchange.hpp"
#include "node/wait.hpp"
#include "scatter/iscatter_across_nodes.hpp"
#include "scatter/iscatter_shm.hpp"
#include "scatter/scatter_across_nodes.hpp"
#include "scatter/scatter_shm.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {

// This rank's receive side's bytes (nothing with MPI_IN_PLACE at the root), or false.
bool receive_side(void* recvbuf, int recvcount, MPI_Datatype recvtype, std::uint64_t* bytes) {
  *bytes = 0;
  if (recvbuf == MPI_IN_PLACE) return true;
  return signature_bytes(recvcount, recvtype, bytes) && !null_buffer(recvbuf, *bytes, recvtype);
}

// Scatterv's root: the largest block it sends, or kNotOurs where its arguments (or its own
// receive side, `own_valid`) are the MPI library's to judge.
std::uint64_t root_largest(bool own_valid, const void* sendbuf, const int* sendcounts, const int* displs,
                           MPI_Datatype sendtype, int size) {
  std::uint64_t largest = 0, total = 0;
  const bool ours = own_valid && displs && block_sizes(sendcounts, sendtype, size, &largest, &total) &&
                    total <= kMaxShmBytes && !null_buffer(sendbuf, total, sendtype);
  return ours ? largest : kNotOurs;
}

int run_scatter(const Decision& d, int root, bool is_root, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                std::uint64_t own_bytes, std::uint64_t max_block, BlockBytes* send) {
  const Config& config = process_config().config;
  if (is_root) send->pack();
  if (recvbuf == MPI_IN_PLACE) {  // the root's own block stays where it is
    scatter_node_bytes(*d.ctx, config, root, max_block, nullptr, 0, send);
    return MPI_SUCCESS;
  }
  MessageBytes recv(recvbuf, recvcount, recvtype, own_bytes);
  scatter_node_bytes(*d.ctx, config, root, max_block, recv.data(), own_bytes, send);
  recv.unpack();
  return MPI_SUCCESS;
}

// MPI_Scatter across nodes: the root's blocks packed, this rank's receive side as bytes.
int run_scatter_across_nodes(const Decision& d, int root, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                             std::uint64_t block, BlockBytes* send) {
  if (send) send->pack();
  const Config& config = process_config().config;
  const RootedSizes sizes = equal_rooted_sizes(*d.ctx, root, block);
  if (recvbuf == MPI_IN_PLACE) return scatter_across_nodes(*d.ctx, config, root, sizes, send, nullptr, 0);
  MessageBytes recv(recvbuf, recvcount, recvtype, block);
  const int rc = scatter_across_nodes(*d.ctx, config, root, sizes, send, recv.data(), block);
  recv.unpack();
  return rc;
}

// MPI_Scatter's operation, inside one node or across nodes.
std::unique_ptr<Operation> make_scatter_operation(const Decision& d, int root, const void* sendbuf, int sendcount,
                                                  MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                                  MPI_Datatype recvtype, std::uint64_t block) {
  const Config& config = process_config().config;
  if (d.ctx->node_count > 1)
    return make_iscatter_across_nodes(*d.ctx, config, root, equal_rooted_sizes(*d.ctx, root, block), sendbuf,
                                      RootBlocks{sendcount}, sendtype, recvbuf, recvcount, recvtype, block);
  return make_iscatter(*d.ctx, config, root, sendbuf, {sendcount}, sendtype, recvbuf, recvcount, recvtype, block,
                       block);
}

// MPI_Scatter's route, alike for its three forms; *block: every rank's block.
Decision route_scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm, Form form, std::uint64_t* block) {
  bool is_root = false;
  if (!rooted_here(comm, root, &is_root)) return handed_on(comm);
  const bool sized = is_root ? signature_bytes(sendcount, sendtype, block) : signature_bytes(recvcount, recvtype, block);
  // Every rank decides (and counts the call towards the communicator's set-up), whatever its
  // arguments: the root sizes the call from one side, the others from the other.
  Decision d = decide_node_only(Collective::scatter, comm, *block, form, true);
  if (!sized) fall_back(d, Collective::scatter, "arguments the MPI library must judge");
  if (d.path != kPmpiPath && *block * static_cast<std::uint64_t>(d.ctx->size) > kMaxShmBytes)
    fall_back(d, Collective::scatter, "2 GiB or more in all");
  // Rank-local, like the MPI library's own checks: a program where only some ranks pass them is
  // erroneous under either.
  std::uint64_t own = 0;
  if (d.path != kPmpiPath && !receive_side(recvbuf, recvcount, recvtype, &own))
    fall_back(d, Collective::scatter, "invalid receive arguments");
  if (d.path != kPmpiPath && is_root && null_buffer(sendbuf, *block, sendtype))
    fall_back(d, Collective::scatter, "null buffer at the root");
  return d;
}

// MPI_Scatterv across nodes (scatter/scatter_across_nodes.hpp): the ranks agree on the largest
// block (a round of the node lines and the leaders), route alike by it, then one message a
// node. `header`: what this rank tells (the root its largest block, the others their own).
int scatterv_spanning(Decision& d, const void* sendbuf, const int* sendcounts, const int* displs,
                      MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                      MPI_Comm comm, bool own_valid, std::uint64_t own, std::uint64_t header) {
  CommContext& ctx = *d.ctx;
  const Config& config = process_config().config;
  const bool is_root = ctx.rank == root;
  const RootedSizes sizes = route_after_round(d, Collective::scatterv, root, header);
  if (d.path == kPmpiPath)
    return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  std::optional<BlockBytes> send;
  if (is_root) {
    send.emplace(const_cast<void*>(sendbuf), ctx.size, sendcounts, displs, sendtype);
    send->pack();
  }
  std::optional<MessageBytes> recv;  // this rank's block as bytes (none with MPI_IN_PLACE)
  if (own_valid && recvbuf != MPI_IN_PLACE && own > 0) recv.emplace(recvbuf, recvcount, recvtype, own);
  const int rc = scatter_across_nodes(ctx, config, root, sizes, send ? &*send : nullptr,
                                      recv ? recv->data() : nullptr, recv ? own : 0);
  if (recv) recv->unpack();
  // Arguments the MPI library would refuse on this rank only: its error, after taking part with
  // nothing (as inside one node).
  if (!own_valid) return raise_side_error(comm, recvcount, recvtype);
  return rc;
}

}  // namespace

int scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm) {
  std::uint64_t block = 0;
  const Decision d = route_scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                                   Form::blocking, &block);
  return blocking_call(
      Collective::scatter, d,
      [&] { return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm); },
      [&] {
        if (block == 0) return MPI_SUCCESS;
        const bool is_root = d.ctx->rank == root;
        std::unique_ptr<BlockBytes> send;
        if (is_root) send.reset(new BlockBytes(const_cast<void*>(sendbuf), d.ctx->size, sendcount, sendtype));
        if (d.ctx->node_count > 1) return run_scatter_across_nodes(d, root, recvbuf, recvcount, recvtype, block, send.get());
        return run_scatter(d, root, is_root, recvbuf, recvcount, recvtype, block, block, send.get());
      });
}

int iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
             MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  std::uint64_t block = 0;
  const Decision d = route_scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                                   Form::nonblocking, &block);
  return nonblocking_call(
      Collective::scatter, d, request,
      [&] { return PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request); },
      [&] {
        return make_scatter_operation(d, root, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, block);
      });
}

int scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  std::uint64_t block = 0;
  const Decision d = route_scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                                   Form::persistent, &block);
  return persistent_call(
      Collective::scatter, d, request,
      [&] {
        return pmpi_scatter_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info,
                                 request);
      },
      [&] {
        return make_scatter_operation(d, root, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, block);
      },
      [&] {
        const bool is_root = d.ctx->rank == root;
        return start_call(sendbuf, recvbuf, [=, send = keep_type(sendtype, is_root),
                                             receive = keep_type(recvtype, !is_root || recvbuf != MPI_IN_PLACE)](
                                                MPI_Request* started) {
          return iscatter(sendbuf, sendcount, send->type(), recvbuf, recvcount, receive->type(), root, comm, started);
        });
      });
}

int scatterv(const void* sendbuf, const int* sendcounts, const int* displs, MPI_Datatype sendtype, void* recvbuf,
             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  if (handed_on_by_memory(Collective::scatterv, comm, root)) return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  bool is_root = false;
  if (!rooted_here(comm, root, &is_root)) {
    count_handed_on(Collective::scatterv, comm, CallKind::blocking);
    return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  }
  // Only the root knows every block's size: it posts the largest in the header line, with the
  // blocks when they all fit; every rank decides from the root's header.
  Decision d = decide_before_agreeing(Collective::scatterv, comm);
  complete_earlier_operations(d);
  if (d.path == kPmpiPath) {
    if (d.count) count_call(Collective::scatterv, d.path, 0);
    return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  }
  CommContext& ctx = *d.ctx;
  const Config& config = process_config().config;
  const int n = ctx.size;
  std::uint64_t own = 0, header = 0;
  const bool own_valid = receive_side(recvbuf, recvcount, recvtype, &own);
  if (is_root) header = root_largest(own_valid, sendbuf, sendcounts, displs, sendtype, n);
  else if (own_valid) header = own;
  if (ctx.node_count > 1)
    return scatterv_spanning(d, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
                             own_valid, own, header);
  std::unique_ptr<BlockBytes> send;
  if (is_root && header != kNotOurs) {
    send.reset(new BlockBytes(const_cast<void*>(sendbuf), n, sendcounts, displs, sendtype));
    send->pack();
  }
  const std::uint64_t tile = kHeaderLineData / static_cast<std::uint64_t>(n);
  Waiter waiter = Waiter::for_context(ctx, config);
  HeaderLine line(ctx, waiter);
  line.post(header, is_root && header <= tile, tile, [&](char* tiles, std::uint64_t, std::uint64_t len) {
    for (int r = 0; r < n; ++r)
      if (r != root) copy_bytes(tiles + r * len, send->data(r), send->size(r));
  });
  const std::uint64_t largest = is_root ? header : line.header(root);
  if (largest == kNotOurs) fall_back(d, Collective::scatterv, "arguments at the root that the MPI library must judge");
  else route_agreed(d, Collective::scatterv, largest);
  if (d.count) count_call(Collective::scatterv, d.path, d.bytes);
  if (d.path == kPmpiPath)
    return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  std::unique_ptr<MessageBytes> recv;
  if (own_valid && recvbuf != MPI_IN_PLACE) recv.reset(new MessageBytes(recvbuf, recvcount, recvtype, own));
  char* into = recv ? recv->data() : nullptr;
  const std::uint64_t into_size = recv ? own : 0;
  if (largest > tile) scatter_node_bytes(ctx, config, root, largest, into, into_size, send.get());
  else if (!is_root) copy_bytes(into, line.data(root) + static_cast<std::uint64_t>(ctx.rank) * tile, std::min(into_size, tile));
  else if (into) copy_bytes(into, send->data(root), std::min(into_size, send->size(root)));
  if (recv) recv->unpack();
  // Arguments the MPI library would refuse on this rank only: its error, through the
  // communicator's handler, after taking part with nothing (the others do not wait in vain).
  if (!own_valid)
    return raise_side_error(comm, recvcount, recvtype);
  return MPI_SUCCESS;
}

int iscatterv(const void* sendbuf, const int* sendcounts, const int* displs, MPI_Datatype sendtype, void* recvbuf,
              int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  const Decision d = decide_node_only(Collective::scatterv, comm, 0, Form::nonblocking);
  if (d.count) count_call(Collective::scatterv, kPmpiPath, 0, CallKind::nonblocking);
  return PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}

int scatterv_init(const void* sendbuf, const int* sendcounts, const int* displs, MPI_Datatype sendtype,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                  MPI_Request* request) {
  bool is_root = false;
  if (!rooted_here(comm, root, &is_root)) {
    count_handed_on(Collective::scatterv, comm, CallKind::persistent);
    return pmpi_scatterv_init(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, info,
                              request);
  }
  // Only the root knows every block's size: the ranks agree on the largest when they initialize.
  int size = 0;
  PMPI_Comm_size(comm, &size);
  std::uint64_t own = 0;
  const bool own_valid = receive_side(recvbuf, recvcount, recvtype, &own);
  const std::uint64_t mine = is_root ? root_largest(own_valid, sendbuf, sendcounts, displs, sendtype, size)
                                     : own_valid ? own : kNotOurs;
  std::uint64_t largest = 0;
  RootedSizes sizes;  // across nodes: every node's bytes at the leaders
  const Decision d = decide_persistent_v(Collective::scatterv, comm, mine, &largest, [&](CommContext& ctx, std::uint64_t agreed) {
    sizes = agree_rooted_sizes(ctx, process_config().config, root, agreed);
    return sizes.largest;
  });
  return persistent_call(
      Collective::scatterv, d, request,
      [&]() {
        return pmpi_scatterv_init(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
                                  info, request);
      },
      [&]() -> std::unique_ptr<Operation> {
        const Config& config = process_config().config;
        if (d.ctx->node_count > 1)
          return make_iscatter_across_nodes(*d.ctx, config, root, std::move(sizes), sendbuf, {0, sendcounts, displs},
                                            sendtype, recvbuf, recvcount, recvtype, own);
        return make_iscatter(*d.ctx, config, root, sendbuf, {0, sendcounts, displs}, sendtype, recvbuf, recvcount,
                             recvtype, own, largest);
      });
}

}  // namespace mcorecoll
