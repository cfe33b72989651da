#include "dispatch.hpp"

#include "alltoall_shm.hpp"
#include "alltoall_single_copy.hpp"
#include "barrier_shm.hpp"
#include "bcast_shm.hpp"
#include "comm_context.hpp"
#include "completion.hpp"
#include "config.hpp"
#include "ialltoall_shm.hpp"
#include "ibarrier_shm.hpp"
#include "ibcast_shm.hpp"
#include "log.hpp"
#include "progress.hpp"
#include "route.hpp"
#include "runtime.hpp"
#include "stats.hpp"

#include <functional>

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
  CommContext* ctx = nullptr;  // null: the arguments are PMPI's to judge
  int path = kPmpiPath;
  bool count = false;  // statistics are on
  std::uint64_t bytes = 0;  // for the statistics
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
  d.bytes = bytes;
  if (d.path == kPmpiPath) say_why_pmpi(c, config, ctx, route.reason);
  return d;
}


Decision route_barrier(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) return {};
  return decide(Collective::barrier, comm, 0);
}

Decision route_bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  std::uint64_t bytes = 0;
  if (comm == MPI_COMM_NULL || !signature_bytes(count, datatype, &bytes)) return {};
  Decision d = decide(Collective::bcast, comm, bytes);
  if (bytes > kMaxShmBytes) fall_back(d, Collective::bcast, "message of 2 GiB or more");
  // A bad root is for the MPI library to report (inter: MPI_ROOT/MPI_PROC_NULL, already PMPI).
  if (root < 0 || root >= d.ctx->size) fall_back(d, Collective::bcast, "invalid root");
  if (d.path != kPmpiPath && null_buffer(buffer, bytes, datatype)) fall_back(d, Collective::bcast, "null buffer");
  if (d.path == kBcastCma && !single_copy_allowed(*d.ctx, process_config().config))
    without_single_copy(d, Collective::bcast, kBcastShm);
  return d;
}

Decision route_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  // The receive side always describes a block (the send side is ignored with MPI_IN_PLACE),
  // and its signature equals every rank's send block.
  std::uint64_t block = 0;
  if (comm == MPI_COMM_NULL || !signature_bytes(recvcount, recvtype, &block)) return {};
  Decision d = decide(Collective::alltoall, comm, block);
  const std::uint64_t total = block * static_cast<std::uint64_t>(d.ctx->size);
  d.bytes = total;
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
  }
  return d;
}

// The communicator's non-blocking operations go first: a blocking call shares their state,
// and its peers may be waiting for them before they come to it.
void complete_earlier_operations(const Decision& d) {
  if (d.ctx && operations_pending()) complete_operations_on(*d.ctx);
}

// A call to a non-blocking PMPI collective: queued behind the communicator's pending
// operations when there are any, so that this rank starts its calls to the MPI library on the
// communicator in the order the application made them (as every other rank does).
class PmpiOperation final : public Operation {
 public:
  PmpiOperation(CommContext& ctx, std::function<int(MPI_Request*)> start)
      : Operation(ctx), start_(std::move(start)) {}
  bool step() override {
    if (!started_) {
      started_ = true;
      rc = start_(&request_);
      if (rc != MPI_SUCCESS) return true;
    }
    return test_request(request_);
  }

 private:
  std::function<int(MPI_Request*)> start_;
  bool started_ = false;
  MPI_Request request_ = MPI_REQUEST_NULL;
};

int pmpi_nonblocking(const Decision& d, std::function<int(MPI_Request*)> start, MPI_Request* request) {
  if (d.ctx && operations_pending_on(*d.ctx))
    return start_operation(std::make_unique<PmpiOperation>(*d.ctx, std::move(start)),
                           process_config().config, request);
  return start(request);
}

// Before a communicator's first shared-memory operation that may wait in its queue: the
// single-copy probe, a collective of the MPI library on the communicator, so that no later
// call needs one while this rank has operations queued (their calls to the MPI library could
// then come in another order than on ranks without a queue).
void prepare_for_queue(CommContext& ctx) { single_copy_allowed(ctx, process_config().config); }

}  // namespace

int barrier(MPI_Comm comm) {
  const Decision d = route_barrier(comm);
  complete_earlier_operations(d);
  if (d.count) count_call(Collective::barrier, d.path, 0);
  if (d.path == kPmpiPath)
    return PMPI_Barrier(comm);
  return barrier_shm(*d.ctx, process_config().config);
}

int bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  const Decision d = route_bcast(buffer, count, datatype, root, comm);
  complete_earlier_operations(d);
  if (d.count) count_call(Collective::bcast, d.path, d.bytes);
  if (d.path == kPmpiPath)
    return PMPI_Bcast(buffer, count, datatype, root, comm);
  return bcast_shm(*d.ctx, process_config().config, buffer, count, datatype, root, d.bytes, d.path == kBcastCma);
}

int alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  Decision d = route_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  complete_earlier_operations(d);
  const Config& config = process_config().config;
  const std::uint64_t block = d.ctx ? d.bytes / static_cast<std::uint64_t>(d.ctx->size) : 0;
  if (d.count) count_call(Collective::alltoall, d.path, d.bytes);
  if (d.path == kPmpiPath)
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  if (d.path == kAlltoallCma)
    return alltoall_single_copy(*d.ctx, config, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                recvtype, block);
  return alltoall_shm(*d.ctx, config, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                      block);
}

int ibarrier(MPI_Comm comm, MPI_Request* request) {
  const Decision d = route_barrier(comm);
  if (d.count) count_call(Collective::barrier, d.path, 0, true);
  if (d.path == kPmpiPath)
    return pmpi_nonblocking(d, [comm](MPI_Request* r) { return PMPI_Ibarrier(comm, r); }, request);
  prepare_for_queue(*d.ctx);
  return start_operation(make_ibarrier(*d.ctx), process_config().config, request);
}

int ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request* request) {
  const Decision d = route_bcast(buffer, count, datatype, root, comm);
  if (d.count) count_call(Collective::bcast, d.path, d.bytes, true);
  if (d.path == kPmpiPath)
    return pmpi_nonblocking(
        d, [=](MPI_Request* r) { return PMPI_Ibcast(buffer, count, datatype, root, comm, r); }, request);
  prepare_for_queue(*d.ctx);
  const Config& config = process_config().config;
  return start_operation(make_ibcast(*d.ctx, config, buffer, count, datatype, root, d.bytes, d.path == kBcastCma),
                         config, request);
}

int ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  const Decision d = route_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  if (d.count) count_call(Collective::alltoall, d.path, d.bytes, true);
  if (d.path == kPmpiPath)
    return pmpi_nonblocking(d, [=](MPI_Request* r) {
      return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, r);
    }, request);
  prepare_for_queue(*d.ctx);
  const Config& config = process_config().config;
  const std::uint64_t block = d.bytes / static_cast<std::uint64_t>(d.ctx->size);
  return start_operation(make_ialltoall(*d.ctx, config, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                        recvtype, block, d.path == kAlltoallCma),
                         config, request);
}

int finalize() {
  prepare_finalize();
  complete_all_operations();
  return PMPI_Finalize();
}

}  // namespace mcorecoll
