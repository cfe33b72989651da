// MPI_Scatter and MPI_Scatterv, and their non-blocking and persistent forms (the MPI library's
// in this version): routed (entry/call_decision.hpp) and checked, then the staged scatter
// inside one node (scatter_shm.hpp) or PMPI.
#include <limits>
#include <memory>

#include "common/block_bytes.hpp"
#include "decisions/config.hpp"
#include "decisions/stats.hpp"
#include "entry/call_decision.hpp"
#include "entry/dispatch.hpp"
#include "entry/pmpi_persistent.hpp"
#include "exchange/staged_exchange.hpp"
#include "scatter/scatter_shm.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {
namespace {

constexpr std::uint64_t kInvalid = std::numeric_limits<std::uint64_t>::max();

// This rank's receive side's bytes (nothing with MPI_IN_PLACE at the root), or false.
bool receive_side(void* recvbuf, int recvcount, MPI_Datatype recvtype, std::uint64_t* bytes) {
  *bytes = 0;
  if (recvbuf == MPI_IN_PLACE) return true;
  return signature_bytes(recvcount, recvtype, bytes) && !null_buffer(recvbuf, *bytes, recvtype);
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

}  // namespace

int scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm) {
  bool is_root = false;
  std::uint64_t block = 0;
  if (!rooted_here(comm, root, &is_root) ||
      !(is_root ? signature_bytes(sendcount, sendtype, &block) : signature_bytes(recvcount, recvtype, &block)))
    return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  Decision d = decide_node_only(Collective::scatter, comm, block, Form::blocking);
  if (d.path != kPmpiPath && block * static_cast<std::uint64_t>(d.ctx->size) > kMaxShmBytes)
    fall_back(d, Collective::scatter, "2 GiB or more in all");
  // Rank-local, like the MPI library's own checks: a program where only some ranks pass them is
  // erroneous under either.
  std::uint64_t own = 0;
  if (d.path != kPmpiPath && !receive_side(recvbuf, recvcount, recvtype, &own))
    fall_back(d, Collective::scatter, "invalid receive arguments");
  if (d.path != kPmpiPath && is_root && null_buffer(sendbuf, block, sendtype))
    fall_back(d, Collective::scatter, "null buffer at the root");
  complete_earlier_operations(d);
  if (d.count) count_call(Collective::scatter, d.path, d.bytes);
  if (d.path == kPmpiPath)
    return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  if (block == 0) return MPI_SUCCESS;
  std::unique_ptr<BlockBytes> send;
  if (is_root) send.reset(new BlockBytes(const_cast<void*>(sendbuf), d.ctx->size, sendcount, sendtype));
  return run_scatter(d, root, is_root, recvbuf, recvcount, recvtype, block, block, send.get());
}

int scatterv(const void* sendbuf, const int* sendcounts, const int* displs, MPI_Datatype sendtype, void* recvbuf,
             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  bool is_root = false;
  if (!rooted_here(comm, root, &is_root))
    return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  // Only the root knows every block's size: the ranks agree on the largest (or that some rank's
  // arguments are the MPI library's to judge) before they choose a path.
  Decision d = decide_before_agreeing(Collective::scatterv, comm);
  std::unique_ptr<BlockBytes> send;
  std::uint64_t own = 0;
  if (d.path != kPmpiPath) {
    std::uint64_t mine = kInvalid, type_bytes = 0, total = 0;
    if (receive_side(recvbuf, recvcount, recvtype, &own)) mine = own;
    if (is_root && mine != kInvalid) {
      if (!sendcounts || !displs || !signature_bytes(1, sendtype, &type_bytes)) mine = kInvalid;
      for (int r = 0; r < d.ctx->size && mine != kInvalid; ++r) {
        const std::uint64_t b = static_cast<std::uint64_t>(sendcounts[r]) * type_bytes;
        if (sendcounts[r] < 0) mine = kInvalid;
        else mine = std::max(mine, b), total += b;
      }
      if (mine != kInvalid && (total > kMaxShmBytes || null_buffer(sendbuf, total, sendtype))) mine = kInvalid;
    }
    const std::uint64_t agreed = agree_max(*d.ctx, process_config().config, mine);
    if (agreed == kInvalid) fall_back(d, Collective::scatterv, "arguments on some rank that the MPI library must judge");
    else route_agreed(d, Collective::scatterv, agreed);
    if (d.path != kPmpiPath && is_root)
      send.reset(new BlockBytes(const_cast<void*>(sendbuf), d.ctx->size, sendcounts, displs, sendtype));
  }
  complete_earlier_operations(d);
  if (d.count) count_call(Collective::scatterv, d.path, d.bytes);
  if (d.path == kPmpiPath)
    return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  return run_scatter(d, root, is_root, recvbuf, recvcount, recvtype, own, d.bytes, send.get());
}

int iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
             MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  const Decision d = decide_node_only(Collective::scatter, comm, 0, Form::nonblocking);
  if (d.count) count_call(Collective::scatter, kPmpiPath, 0, CallKind::nonblocking);
  return PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}

int scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const Decision d = decide_node_only(Collective::scatter, comm, 0, Form::persistent);
  if (d.count) count_call(Collective::scatter, kPmpiPath, 0, CallKind::persistent);
  return pmpi_scatter_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info, request);
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
  const Decision d = decide_node_only(Collective::scatterv, comm, 0, Form::persistent);
  if (d.count) count_call(Collective::scatterv, kPmpiPath, 0, CallKind::persistent);
  return pmpi_scatterv_init(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, info,
                            request);
}

}  // namespace mcorecoll
