#include "dispatch.hpp"

#include "alltoall_shm.hpp"
#include "alltoall_single_copy.hpp"
#include "barrier_shm.hpp"
#include "bcast_shm.hpp"
#include "comm_context.hpp"
#include "config.hpp"
#include "log.hpp"
#include "route.hpp"
#include "runtime.hpp"
#include "stats.hpp"

namespace mcorecoll {
namespace {

// Larger messages always go to PMPI: MPI_Pack and the leaders' PMPI_Bcast count in int.
constexpr std::uint64_t kMaxShmBytes = 0x7fffffff;

// Signature bytes of `count` elements of `type`, or false for arguments PMPI must judge
// itself (it raises the error through the communicator's handler, as without mcorecoll).
bool signature_bytes(int count, MPI_Datatype type, std::uint64_t* bytes) {
  if (count < 0 || type == MPI_DATATYPE_NULL) return false;
  int size = 0;
  if (PMPI_Type_size(type, &size) != MPI_SUCCESS || size < 0) return false;
  *bytes = static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(size);
  return true;
}

// A null buffer whose data would start at address 0: MPI_BOTTOM with a datatype of absolute
// addresses is legal, but with anything else the MPI library raises MPI_ERR_BUFFER (MPICH) or
// faults (Open MPI 4.1), and the call is its to judge. Rank-local, like the MPI library's own
// check: a program where only some ranks pass it is erroneous under either.
bool null_buffer(const void* buffer, std::uint64_t bytes, MPI_Datatype type) {
  if (buffer != nullptr || bytes == 0) return false;
  MPI_Aint true_lb = 0, true_extent = 0;
  PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
  return true_lb == 0;
}

// The context and path of one call. Calls that PMPI must reject (null communicator, bad
// counts or datatypes) go to it before any decision.
struct Decision {
  CommContext* ctx = nullptr;
  int path = kPmpiPath;
  bool count = false;  // statistics are on
};

void say_why_pmpi(Collective c, const Config& config, const CommContext& ctx, const char* reason) {
  if (config.verbose >= 1 && ctx.rank == 0)
    say_once(std::string(collective_name(c)) + ":" + reason,
             std::string(collective_name(c)) + " goes to the MPI library: " + reason);
}

// A call the router gave an algorithm that this call cannot take after all.
void fall_back(Decision& d, Collective c, const char* reason) {
  if (d.path == kPmpiPath) return;
  d.path = kPmpiPath;
  say_why_pmpi(c, process_config().config, *d.ctx, reason);
}

// Single copy refused on this communicator (the probe is collective, so every rank agrees):
// a forced single copy takes copy-in/copy-out instead; auto mode hands the call to PMPI, as
// its bounds were measured for the single copy, and copy-in/copy-out loses at those sizes.
void without_single_copy(Decision& d, Collective c, int copy_in_out_path) {
  if (process_config().config.forced_path[static_cast<int>(c)] > 0) d.path = copy_in_out_path;
  else fall_back(d, c, "single copy (Cross Memory Attach) refused");
}

Decision decide(Collective c, MPI_Comm comm, std::uint64_t bytes) {
  Decision d;
  const Config& config = config_or_abort(comm);
  CommContext& ctx = context_for(comm, config);
  d.ctx = &ctx;
  Route route;
  if (!ctx.pmpi_reason.empty()) route.reason = ctx.pmpi_reason.c_str();
  else route = choose_route(c, config, bytes, ctx.node_count > 1, ctx.table_rows[static_cast<int>(c)]);
  if (route.path != kPmpiPath && !ensure_shm(ctx, config)) {
    route.path = kPmpiPath;
    route.reason = "no shared memory";
  }
  d.path = route.path;
  d.count = config.stats;
  if (d.path == kPmpiPath) say_why_pmpi(c, config, ctx, route.reason);
  return d;
}

}  // namespace

int barrier(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) return PMPI_Barrier(comm);
  const Decision d = decide(Collective::barrier, comm, 0);
  if (d.count) count_call(Collective::barrier, d.path, 0);
  if (d.path == kPmpiPath) return PMPI_Barrier(comm);
  return barrier_shm(*d.ctx, process_config().config);
}

int bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  std::uint64_t bytes = 0;
  if (comm == MPI_COMM_NULL || !signature_bytes(count, datatype, &bytes))
    return PMPI_Bcast(buffer, count, datatype, root, comm);
  Decision d = decide(Collective::bcast, comm, bytes);
  if (bytes > kMaxShmBytes) fall_back(d, Collective::bcast, "message of 2 GiB or more");
  // A bad root is for the MPI library to report (inter: MPI_ROOT/MPI_PROC_NULL, already PMPI).
  if (root < 0 || root >= d.ctx->size) fall_back(d, Collective::bcast, "invalid root");
  if (d.path != kPmpiPath && null_buffer(buffer, bytes, datatype)) fall_back(d, Collective::bcast, "null buffer");
  const Config& config = process_config().config;
  if (d.path == kBcastCma && !single_copy_allowed(*d.ctx, config))
    without_single_copy(d, Collective::bcast, kBcastShm);
  if (d.count) count_call(Collective::bcast, d.path, bytes);
  if (d.path == kPmpiPath) return PMPI_Bcast(buffer, count, datatype, root, comm);
  return bcast_shm(*d.ctx, config, buffer, count, datatype, root, bytes, d.path == kBcastCma);
}

int alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  // The receive side always describes a block (the send side is ignored with MPI_IN_PLACE),
  // and its signature equals every rank's send block.
  std::uint64_t block = 0;
  if (comm == MPI_COMM_NULL || !signature_bytes(recvcount, recvtype, &block))
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  Decision d = decide(Collective::alltoall, comm, block);
  const std::uint64_t total = block * static_cast<std::uint64_t>(d.ctx->size);
  // Bad send arguments are PMPI's to report.
  if (total > kMaxShmBytes) fall_back(d, Collective::alltoall, "2 GiB or more per rank");
  if (sendbuf != MPI_IN_PLACE && (sendcount < 0 || sendtype == MPI_DATATYPE_NULL))
    fall_back(d, Collective::alltoall, "invalid send arguments");
  if (d.path != kPmpiPath && (null_buffer(recvbuf, block, recvtype) ||
                               (sendbuf != MPI_IN_PLACE && null_buffer(sendbuf, block, sendtype))))
    fall_back(d, Collective::alltoall, "null buffer");
  const Config& config = process_config().config;
  // Single copy works inside one node (auto mode takes it only there); across nodes the
  // leaders exchange staged tiles.
  if (d.path == kAlltoallCma && d.ctx->node_count > 1) d.path = kAlltoallShm;
  if (d.path == kAlltoallCma && !single_copy_allowed(*d.ctx, config))
    without_single_copy(d, Collective::alltoall, kAlltoallShm);
  if (d.path == kAlltoallShm) {
    // A round stages at least one byte per peer in half a staging area, and the leaders'
    // exchange counts a node's half areas in int. Both from values equal on all ranks.
    const std::uint64_t half = staging_area_bytes(config) / 2;
    if (static_cast<std::uint64_t>(d.ctx->size) > half)
      fall_back(d, Collective::alltoall, "more ranks than bytes in half a staging area (MCORECOLL_ALLTOALL_STAGE_BYTES)");
    if (d.ctx->node_count > 1 && static_cast<std::uint64_t>(d.ctx->max_node_size) * half > kMaxShmBytes)
      fall_back(d, Collective::alltoall, "a node's staging areas hold 2 GiB or more (MCORECOLL_ALLTOALL_STAGE_BYTES)");
    // Decided by the node leader for every rank of the node (the whole communicator here).
    if (d.path == kAlltoallShm && !staging_ready(*d.ctx, config, block))
      fall_back(d, Collective::alltoall, "the node's buffer pool is full (MCORECOLL_POOL_MAX_BYTES)");
  }
  if (d.count) count_call(Collective::alltoall, d.path, total);
  if (d.path == kPmpiPath)
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  if (d.path == kAlltoallCma)
    return alltoall_single_copy(*d.ctx, config, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                recvtype, block);
  return alltoall_shm(*d.ctx, config, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                      block);
}

int finalize() {
  prepare_finalize();
  return PMPI_Finalize();
}

}  // namespace mcorecoll
