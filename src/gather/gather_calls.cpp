// MPI_Gather and MPI_Gatherv, and their non-blocking and persistent forms (the MPI library's in
// this version): routed (entry/call_decision.hpp) and checked, then the staged gather inside
// one node (gather_shm.hpp) or PMPI.
#include <limits>

#include "common/block_bytes.hpp"
#include "decisions/config.hpp"
#include "decisions/stats.hpp"
#include "entry/call_decision.hpp"
#include "entry/dispatch.hpp"
#include "entry/pmpi_persistent.hpp"
#include "exchange/staged_exchange.hpp"
#include "gather/gather_shm.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {
namespace {

constexpr std::uint64_t kInvalid = std::numeric_limits<std::uint64_t>::max();

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

}  // namespace

int gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm) {
  bool is_root = false;
  std::uint64_t block = 0;
  // The block every rank gives: the root knows it from its receive side, the others from their
  // send side (the standard makes the two signatures equal).
  if (!rooted_here(comm, root, &is_root) ||
      !(is_root ? signature_bytes(recvcount, recvtype, &block) : signature_bytes(sendcount, sendtype, &block)))
    return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  Decision d = decide_node_only(Collective::gather, comm, block, Form::blocking);
  if (d.path != kPmpiPath && block * static_cast<std::uint64_t>(d.ctx->size) > kMaxShmBytes)
    fall_back(d, Collective::gather, "2 GiB or more in all");
  // Rank-local, like the MPI library's own checks: a program where only some ranks pass them is
  // erroneous under either.
  if (d.path != kPmpiPath && !contribution(is_root ? MPI_IN_PLACE : sendbuf, sendcount, sendtype).valid)
    fall_back(d, Collective::gather, "invalid send arguments");
  if (d.path != kPmpiPath && is_root &&
      (null_buffer(recvbuf, block, recvtype) || !contribution(sendbuf, sendcount, sendtype).valid))
    fall_back(d, Collective::gather, "invalid arguments at the root");
  complete_earlier_operations(d);
  if (d.count) count_call(Collective::gather, d.path, d.bytes);
  if (d.path == kPmpiPath) return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  if (block == 0) return MPI_SUCCESS;
  if (!is_root) return run_gather(d, root, false, sendbuf, sendcount, sendtype, block, block, nullptr);
  BlockBytes recv(recvbuf, d.ctx->size, recvcount, recvtype);
  return run_gather(d, root, true, sendbuf, sendcount, sendtype, block, block, &recv);
}

int gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
            const int* displs, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  bool is_root = false;
  if (!rooted_here(comm, root, &is_root))
    return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  // Only the root knows every block's size: the ranks agree on the largest (or that some rank's
  // arguments are the MPI library's to judge) before they choose a path.
  Decision d = decide_before_agreeing(Collective::gatherv, comm);
  std::unique_ptr<BlockBytes> recv;
  std::uint64_t mine = kInvalid, own_bytes = 0;
  if (d.path != kPmpiPath) {
    const Contribution own = contribution(sendbuf, sendcount, sendtype);
    own_bytes = own.bytes;
    std::uint64_t type_bytes = 0, total = 0;
    if (!is_root) {
      if (own.valid) mine = own.bytes;
    } else if (own.valid && recvcounts && displs && signature_bytes(1, recvtype, &type_bytes)) {
      mine = 0;
      for (int r = 0; r < d.ctx->size && mine != kInvalid; ++r) {
        const std::uint64_t b = static_cast<std::uint64_t>(recvcounts[r]) * type_bytes;
        if (recvcounts[r] < 0) mine = kInvalid;
        else mine = std::max(mine, b), total += b;
      }
      if (mine != kInvalid && (total > kMaxShmBytes || null_buffer(recvbuf, total, recvtype))) mine = kInvalid;
    }
    const std::uint64_t agreed = agree_max(*d.ctx, process_config().config, mine);
    if (agreed == kInvalid) fall_back(d, Collective::gatherv, "arguments on some rank that the MPI library must judge");
    else route_agreed(d, Collective::gatherv, agreed);
    if (d.path != kPmpiPath && is_root) recv.reset(new BlockBytes(recvbuf, d.ctx->size, recvcounts, displs, recvtype));
  }
  complete_earlier_operations(d);
  if (d.count) count_call(Collective::gatherv, d.path, d.bytes);
  if (d.path == kPmpiPath)
    return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  return run_gather(d, root, is_root, sendbuf, sendcount, sendtype, own_bytes, d.bytes, recv.get());
}

int igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  const Decision d = decide_node_only(Collective::gather, comm, 0, Form::nonblocking);
  if (d.count) count_call(Collective::gather, kPmpiPath, 0, CallKind::nonblocking);
  return PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}

int gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const Decision d = decide_node_only(Collective::gather, comm, 0, Form::persistent);
  if (d.count) count_call(Collective::gather, kPmpiPath, 0, CallKind::persistent);
  return pmpi_gather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info, request);
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
  const Decision d = decide_node_only(Collective::gatherv, comm, 0, Form::persistent);
  if (d.count) count_call(Collective::gatherv, kPmpiPath, 0, CallKind::persistent);
  return pmpi_gatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, info,
                           request);
}

}  // namespace mcorecoll
