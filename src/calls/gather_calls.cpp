// MPI_Gather and MPI_Gatherv, and their non-blocking and persistent forms (MPI_Igatherv: the MPI
// library's): routed (entry/call_decision.hpp) and checked, then the staged gather inside one
// node (gather/gather_shm.hpp; the operations of the other forms, gather/igather_shm.hpp), the
// gather across nodes (gather/gather_across_nodes.hpp, gather/igather_across_nodes.hpp; gatherv's
// blocking and persistent forms after their ranks agree on the sizes), or PMPI.
#include <algorithm>
#include <cstring>
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
#include "gather/gather_across_nodes.hpp"
#include "gather/gather_shm.hpp"
#include "gather/igather_across_nodes.hpp"
#include "gather/igather_shm.hpp"
#include "node/wait.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {


// This rank's contribution: its send side, or with MPI_IN_PLACE (the root only) nothing.
struct Contribution {
  std::uint64_t bytes = 0;
  bool valid = true;
};

Contribution contribution(const void* sendbuf, int sendcount, MPI_Datatype sendtype) {
  Contribution c;
  if (sendbuf == MPI_IN_PLACE) return c;
  c.valid = signature_bytes(sendcount, sendtype, &c.bytes) && !null_buffer(sendbuf, c.bytes, sendtype);
  return c;
}

// Gatherv's root: the largest block it receives, or kNotOurs where its arguments are the MPI
// library's to judge.
std::uint64_t root_largest(const Contribution& own, void* recvbuf, const int* recvcounts, const int* displs,
                           MPI_Datatype recvtype, int size) {
  std::uint64_t largest = 0, total = 0;
  const bool ours = own.valid && displs && block_sizes(recvcounts, recvtype, size, &largest, &total) &&
                    total <= kMaxShmBytes && !null_buffer(recvbuf, total, recvtype);
  return ours ? largest : kNotOurs;
}

int run_gather(const Decision& d, int root, bool is_root, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
               std::uint64_t own_bytes, std::uint64_t max_block, BlockBytes* recv) {
  const Config& config = process_config().config;
  if (!is_root || sendbuf != MPI_IN_PLACE) {
    MessageBytes send(const_cast<void*>(sendbuf), sendcount, sendtype, own_bytes);
    send.pack();
    gather_node_bytes(*d.ctx, config, root, max_block, send.data(), own_bytes, recv);
  } else {
    gather_node_bytes(*d.ctx, config, root, max_block, nullptr, 0, recv);
  }
  if (is_root) recv->unpack_all_but(sendbuf == MPI_IN_PLACE ? root : -1);
  return MPI_SUCCESS;
}

// MPI_Gather across nodes: this rank's block as bytes (none at the root in place), then the
// rounds with every block `block` bytes.
int run_gather_across_nodes(const Decision& d, int root, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            std::uint64_t block, void* recvbuf, int recvcount, MPI_Datatype recvtype) {
  CommContext& ctx = *d.ctx;
  const bool is_root = ctx.rank == root;
  std::optional<BlockBytes> recv;
  if (is_root) recv.emplace(recvbuf, ctx.size, recvcount, recvtype);
  std::optional<MessageBytes> send;
  if (!is_root || sendbuf != MPI_IN_PLACE) {
    send.emplace(const_cast<void*>(sendbuf), sendcount, sendtype, block);
    send->pack();
  }
  const char* bytes = send ? send->data() : nullptr;
  const std::uint64_t size = send ? block : 0;
  const RootedSizes sizes = equal_rooted_sizes(ctx, root, block);
  return gather_across_nodes(ctx, process_config().config, root, sizes, is_root ? nullptr : bytes, is_root ? 0 : size,
                             recv ? &*recv : nullptr, is_root ? bytes : nullptr, is_root ? size : 0);
}

// MPI_Gatherv across nodes (gather/gather_across_nodes.hpp): the ranks agree on the largest
// block (a round of the node lines and the leaders), route alike by it, then one message a
// node. `header`: what this rank tells (the root its largest block, the others their own).
int gatherv_spanning(Decision& d, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     const int* recvcounts, const int* displs, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     const Contribution& own, std::uint64_t header) {
  CommContext& ctx = *d.ctx;
  const Config& config = process_config().config;
  const bool is_root = ctx.rank == root;
  const RootedSizes sizes = route_after_round(d, Collective::gatherv, root, header);
  if (d.path == kPmpiPath)
    return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  std::optional<MessageBytes> send;  // this rank's block as bytes (the root's: its own, unless in place)
  if (own.valid && sendbuf != MPI_IN_PLACE && own.bytes > 0) {
    send.emplace(const_cast<void*>(sendbuf), sendcount, sendtype, own.bytes);
    send->pack();
  }
  std::optional<BlockBytes> recv;
  if (is_root) recv.emplace(recvbuf, ctx.size, recvcounts, displs, recvtype);
  const char* bytes = send ? send->data() : nullptr;
  const std::uint64_t size = send ? own.bytes : 0;
  const int rc = gather_across_nodes(ctx, config, root, sizes, is_root ? nullptr : bytes, is_root ? 0 : size,
                                     recv ? &*recv : nullptr, is_root ? bytes : nullptr, is_root ? size : 0);
  // Arguments the MPI library would refuse on this rank only: its error, after taking part with
  // nothing (as inside one node).
  if (!is_root && !own.valid)
    return raise_side_error(comm, sendcount, sendtype);
  return rc;
}

// MPI_Gather's operation, inside one node or across nodes.
std::unique_ptr<Operation> make_gather_operation(const Decision& d, int root, const void* sendbuf, int sendcount,
                                                 MPI_Datatype sendtype, std::uint64_t block, void* recvbuf,
                                                 int recvcount, MPI_Datatype recvtype) {
  const Config& config = process_config().config;
  if (d.ctx->node_count > 1)
    return make_igather_across_nodes(*d.ctx, config, root, equal_rooted_sizes(*d.ctx, root, block), sendbuf, sendcount,
                                     sendtype, block, recvbuf, RootBlocks{recvcount}, recvtype);
  return make_igather(*d.ctx, config, root, sendbuf, sendcount, sendtype, block, recvbuf, {recvcount}, recvtype, block);
}

// MPI_Gather's route, alike for its three forms; *block: every rank's block.
Decision route_gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, Form form, std::uint64_t* block) {
  bool is_root = false;
  if (!rooted_here(comm, root, &is_root)) return handed_on(comm);
  // The block every rank gives: the root knows it from its receive side, the others from their
  // send side (the standard makes the two signatures equal).
  const bool sized = is_root ? signature_bytes(recvcount, recvtype, block) : signature_bytes(sendcount, sendtype, block);
  // Every rank decides (and counts the call towards the communicator's set-up), whatever its
  // arguments: the root sizes the call from one side, the others from the other.
  Decision d = decide_node_only(Collective::gather, comm, *block, form, true);
  if (!sized) fall_back(d, Collective::gather, "arguments the MPI library must judge");
  if (d.path != kPmpiPath && *block * static_cast<std::uint64_t>(d.ctx->size) > kMaxShmBytes)
    fall_back(d, Collective::gather, "2 GiB or more in all");
  // Rank-local, like the MPI library's own checks: a program where only some ranks pass them is
  // erroneous under either.
  if (d.path != kPmpiPath && !contribution(is_root ? MPI_IN_PLACE : sendbuf, sendcount, sendtype).valid)
    fall_back(d, Collective::gather, "invalid send arguments");
  if (d.path != kPmpiPath && is_root &&
      (null_buffer(recvbuf, *block, recvtype) || !contribution(sendbuf, sendcount, sendtype).valid))
    fall_back(d, Collective::gather, "invalid arguments at the root");
  return d;
}

}  // namespace

int gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm) {
  std::uint64_t block = 0;
  const Decision d = route_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                                  Form::blocking, &block);
  return blocking_call(
      Collective::gather, d,
      [&] { return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm); },
      [&] {
        if (block == 0) return MPI_SUCCESS;
        if (d.ctx->node_count > 1)
          return run_gather_across_nodes(d, root, sendbuf, sendcount, sendtype, block, recvbuf, recvcount, recvtype);
        if (d.ctx->rank != root) return run_gather(d, root, false, sendbuf, sendcount, sendtype, block, block, nullptr);
        BlockBytes recv(recvbuf, d.ctx->size, recvcount, recvtype);
        return run_gather(d, root, true, sendbuf, sendcount, sendtype, block, block, &recv);
      });
}

int igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  std::uint64_t block = 0;
  const Decision d = route_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                                  Form::nonblocking, &block);
  return nonblocking_call(
      Collective::gather, d, request,
      [&] { return PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request); },
      [&] { return make_gather_operation(d, root, sendbuf, sendcount, sendtype, block, recvbuf, recvcount, recvtype); });
}

int gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  std::uint64_t block = 0;
  const Decision d = route_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                                  Form::persistent, &block);
  return persistent_call(
      Collective::gather, d, request,
      [&] {
        return pmpi_gather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info,
                                request);
      },
      [&] { return make_gather_operation(d, root, sendbuf, sendcount, sendtype, block, recvbuf, recvcount, recvtype); },
      [&] {
        const bool is_root = d.ctx->rank == root;
        return start_call(sendbuf, recvbuf, [=, send = keep_type(sendtype, !is_root || sendbuf != MPI_IN_PLACE),
                                             receive = keep_type(recvtype, is_root)](MPI_Request* started) {
          return igather(sendbuf, sendcount, send->type(), recvbuf, recvcount, receive->type(), root, comm, started);
        });
      });
}

int gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
            const int* displs, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  if (handed_on_by_memory(Collective::gatherv, comm, root)) return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  bool is_root = false;
  if (!rooted_here(comm, root, &is_root)) {
    count_handed_on(Collective::gatherv, comm, CallKind::blocking);
    return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  }
  // Only the root knows every block's size: it posts the largest in the header line, which the
  // others' small blocks travel in too; every rank decides from the root's header.
  Decision d = decide_before_agreeing(Collective::gatherv, comm);
  complete_earlier_operations(d);
  if (d.path == kPmpiPath) {
    if (d.count) count_call(Collective::gatherv, d.path, 0);
    return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  }
  CommContext& ctx = *d.ctx;
  const Config& config = process_config().config;
  const Contribution own = contribution(sendbuf, sendcount, sendtype);
  const std::uint64_t header = is_root ? root_largest(own, recvbuf, recvcounts, displs, recvtype, ctx.size)
                                       : own.valid ? own.bytes : 0;
  if (ctx.node_count > 1)
    return gatherv_spanning(d, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, own,
                            header);
  std::unique_ptr<MessageBytes> send;
  if (!is_root && own.valid) {
    send.reset(new MessageBytes(const_cast<void*>(sendbuf), sendcount, sendtype, own.bytes));
    send->pack();
  }
  Waiter waiter = Waiter::for_context(ctx, config);
  HeaderLine line(ctx, waiter);
  line.post(header, send && own.bytes <= kHeaderLineData, kHeaderLineData,
            [&](char* to, std::uint64_t, std::uint64_t) { copy_bytes(to, send->data(), own.bytes); });
  const std::uint64_t largest = is_root ? header : line.header(root);
  if (largest == kNotOurs) fall_back(d, Collective::gatherv, "arguments at the root that the MPI library must judge");
  else route_agreed(d, Collective::gatherv, largest);
  if (d.count) count_call(Collective::gatherv, d.path, d.bytes);
  if (d.path == kPmpiPath)
    return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  if (!is_root) {
    if (largest > kHeaderLineData)
      gather_node_bytes(ctx, config, root, largest, send ? send->data() : nullptr, send ? own.bytes : 0, nullptr);
    // Arguments the MPI library would refuse on this rank only: its error, through the
    // communicator's handler, after taking part with nothing (the others do not wait in vain).
    if (!own.valid) return raise_side_error(comm, sendcount, sendtype);
    return MPI_SUCCESS;
  }
  BlockBytes recv(recvbuf, ctx.size, recvcounts, displs, recvtype);
  std::unique_ptr<MessageBytes> mine;
  if (sendbuf != MPI_IN_PLACE) {
    mine.reset(new MessageBytes(const_cast<void*>(sendbuf), sendcount, sendtype, own.bytes));
    mine->pack();
  }
  if (largest <= kHeaderLineData) {
    for (int r = 0; r < ctx.size; ++r) {
      if (r == root) continue;
      line.header(r);  // waits for r's post
      copy_bytes(recv.data(r), line.data(r), std::min<std::uint64_t>(recv.size(r), kHeaderLineData));
    }
    if (mine) copy_bytes(recv.data(root), mine->data(), std::min(own.bytes, recv.size(root)));
  } else {
    gather_node_bytes(ctx, config, root, largest, mine ? mine->data() : nullptr, own.bytes, &recv);
  }
  recv.unpack_all_but(mine ? -1 : root);
  return MPI_SUCCESS;
}

int igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
             const int* displs, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  const Decision d = decide_node_only(Collective::gatherv, comm, 0, Form::nonblocking);
  if (d.count) count_call(Collective::gatherv, kPmpiPath, 0, CallKind::nonblocking);
  return PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, request);
}

int gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                 const int* displs, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                 MPI_Request* request) {
  bool is_root = false;
  if (!rooted_here(comm, root, &is_root)) {
    count_handed_on(Collective::gatherv, comm, CallKind::persistent);
    return pmpi_gatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, info,
                             request);
  }
  // Only the root knows every block's size: the ranks agree on the largest when they initialize.
  int size = 0;
  PMPI_Comm_size(comm, &size);
  const Contribution own = contribution(sendbuf, sendcount, sendtype);
  const std::uint64_t mine = is_root ? root_largest(own, recvbuf, recvcounts, displs, recvtype, size)
                                     : own.valid ? own.bytes : kNotOurs;
  std::uint64_t largest = 0;
  RootedSizes sizes;  // across nodes: every node's bytes at the leaders
  const Decision d = decide_persistent_v(Collective::gatherv, comm, mine, &largest, [&](CommContext& ctx, std::uint64_t agreed) {
    sizes = agree_rooted_sizes(ctx, process_config().config, root, agreed);
    return sizes.largest;
  });
  return persistent_call(
      Collective::gatherv, d, request,
      [&]() {
        return pmpi_gatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
                                 info, request);
      },
      [&]() -> std::unique_ptr<Operation> {
        const Config& config = process_config().config;
        if (d.ctx->node_count > 1)
          return make_igather_across_nodes(*d.ctx, config, root, std::move(sizes), sendbuf, sendcount, sendtype,
                                           own.bytes, recvbuf, {0, recvcounts, displs}, recvtype);
        return make_igather(*d.ctx, config, root, sendbuf, sendcount, sendtype, own.bytes, recvbuf,
                            {0, recvcounts, displs}, recvtype, largest);
      });
}

}  // namespace mcorecoll
