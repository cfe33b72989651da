#include "dispatch.hpp"

#include "alltoall_shm.hpp"
#include "alltoall_single_copy.hpp"
#include "alltoall_rounds.hpp"
#include "barrier_shm.hpp"
#include "bcast_ring.hpp"
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
#include "wait.hpp"

#include <memory>

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
  CommContext* ctx = nullptr;  // null: PMPI (arguments PMPI must judge, or no context yet)
  int path = kPmpiPath;
  bool count = false;  // statistics are on
  std::uint64_t bytes = 0;  // for the statistics
};

// How a call was made: its set-up rules differ. A communicator is set up (its context, its
// segment, the single-copy probe) by collectives of the MPI library on it, which a blocking call
// and a persistent initialization may make but a non-blocking call may not: it must not wait
// for other ranks (a rank may start non-blocking operations on two communicators in one order,
// another rank in the other). Whether an earlier blocking or persistent call set a
// communicator up is a matter of program order, alike on every rank.
enum class Form { blocking, nonblocking, persistent };

void say_why_pmpi(Collective c, const Config& config, MPI_Comm comm, const char* reason) {
  if (config.verbose < 1) return;
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  if (rank == 0)
    say_once(std::string(collective_name(c)) + ":" + reason,
             std::string(collective_name(c)) + " goes to the MPI library: " + reason);
}

// A call the router gave an algorithm that this call cannot take after all.
void fall_back(Decision& d, Collective c, const char* reason) {
  if (d.path == kPmpiPath) return;
  d.path = kPmpiPath;
  say_why_pmpi(c, process_config().config, d.ctx->comm, reason);
}

// Single copy refused on this communicator (the probe is collective, so every rank agrees):
// a forced single copy takes copy-in/copy-out instead; auto mode hands the call to PMPI, as
// its bounds were measured for the single copy, and copy-in/copy-out loses at those sizes.
void without_single_copy(Decision& d, Collective c, int copy_in_out_path) {
  if (process_config().config.forced_path[static_cast<int>(c)] > 0) d.path = copy_in_out_path;
  else fall_back(d, c, "single copy (Cross Memory Attach) refused");
}

Decision decide(Collective c, MPI_Comm comm, std::uint64_t bytes, Form form) {
  Decision d;
  const Config& config = config_or_abort(comm);
  d.count = config.stats;
  d.bytes = bytes;
  if (form == Form::nonblocking) {
    d.ctx = existing_context(comm);
    if (!d.ctx) {
      say_why_pmpi(c, config, comm, "a non-blocking call on a communicator not set up yet (its first blocking "
                                    "or persistent collective sets it up)");
      return d;
    }
  } else {
    d.ctx = &context_for(comm, config);
  }
  CommContext& ctx = *d.ctx;
  Route route;
  if (!ctx.pmpi_reason.empty()) route.reason = ctx.pmpi_reason.c_str();
  else route = choose_route(c, config, bytes, ctx.node_count > 1, ctx.table_rows[static_cast<int>(c)]);
  if (route.path != kPmpiPath && !ctx.shm) {
    if (form == Form::nonblocking) {
      route = {kPmpiPath, ctx.shm_failed ? "no shared memory"
                                         : "a non-blocking call on a communicator whose shared memory is not set up "
                                           "yet (its first blocking or persistent collective on a shared-memory path sets it up)"};
    } else if (!ensure_shm(ctx, config)) {
      route = {kPmpiPath, "no shared memory"};
    }
  }
  // Across nodes an operation's leaders' part calls MPI after its start: only where that can
  // happen while the application is blocked elsewhere (equal on every rank).
  if (route.path != kPmpiPath && form != Form::blocking && ctx.node_count > 1 && !ctx.operations_may_span_nodes)
    route = {kPmpiPath, "a non-blocking or persistent operation across nodes needs MPI calls while this rank may be "
                        "blocked in another call: MPI_THREAD_MULTIPLE, or an MPI library with a progress hook (Open MPI)"};
  d.path = route.path;
  if (d.path == kPmpiPath) say_why_pmpi(c, config, comm, route.reason);
  return d;
}

Decision route_barrier(MPI_Comm comm, Form form) {
  if (comm == MPI_COMM_NULL) return {};
  return decide(Collective::barrier, comm, 0, form);
}

Decision route_bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, Form form) {
  std::uint64_t bytes = 0;
  if (comm == MPI_COMM_NULL || !signature_bytes(count, datatype, &bytes)) return {};
  Decision d = decide(Collective::bcast, comm, bytes, form);
  if (d.path == kPmpiPath) return d;
  if (bytes > kMaxShmBytes) fall_back(d, Collective::bcast, "message of 2 GiB or more");
  // A bad root is for the MPI library to report (inter: MPI_ROOT/MPI_PROC_NULL, already PMPI).
  if (root < 0 || root >= d.ctx->size) fall_back(d, Collective::bcast, "invalid root");
  if (d.path != kPmpiPath && null_buffer(buffer, bytes, datatype)) fall_back(d, Collective::bcast, "null buffer");
  if (d.path == kBcastCma && !single_copy_allowed(*d.ctx, process_config().config))
    without_single_copy(d, Collective::bcast, kBcastShm);
  return d;
}

Decision route_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, Form form) {
  // The receive side always describes a block (the send side is ignored with MPI_IN_PLACE),
  // and its signature equals every rank's send block.
  std::uint64_t block = 0;
  if (comm == MPI_COMM_NULL || !signature_bytes(recvcount, recvtype, &block)) return {};
  Decision d = decide(Collective::alltoall, comm, block, form);
  if (!d.ctx) {  // PMPI: the statistics count every block
    int size = 0, inter = 0;
    PMPI_Comm_test_inter(comm, &inter);
    inter ? PMPI_Comm_remote_size(comm, &size) : PMPI_Comm_size(comm, &size);
    d.bytes = block * static_cast<std::uint64_t>(size);
    return d;
  }
  const std::uint64_t total = block * static_cast<std::uint64_t>(d.ctx->size);
  d.bytes = total;
  if (d.path == kPmpiPath) return d;
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
  if (d.ctx) complete_operations_on(*d.ctx);
}

// The persistent collectives of the MPI library, for the calls that go to PMPI: MPI-4's in
// MPICH, the pcollreq extension's (MPIX_) in Open MPI 4.1.
#if defined(MPICH_VERSION)
int pmpi_barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return PMPI_Barrier_init(comm, info, request);
}
int pmpi_bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                    MPI_Request* request) {
  return PMPI_Bcast_init(buffer, count, datatype, root, comm, info, request);
}
int pmpi_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return PMPI_Alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request);
}
#else
}  // namespace
}  // namespace mcorecoll
extern "C" {
int PMPIX_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* request);
int PMPIX_Bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request* request);
int PMPIX_Alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request);
}
namespace mcorecoll {
namespace {
int pmpi_barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return PMPIX_Barrier_init(comm, info, request);
}
int pmpi_bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                    MPI_Request* request) {
  return PMPIX_Bcast_init(buffer, count, datatype, root, comm, info, request);
}
int pmpi_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return PMPIX_Alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request);
}
#endif

// The operation of a non-blocking or persistent call on a shared-memory path.
std::unique_ptr<Operation> make_operation(Collective c, const Decision& d, void* buffer, int count,
                                          MPI_Datatype datatype, int root, const void* sendbuf, int sendcount,
                                          MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype) {
  const Config& config = process_config().config;
  CommContext& ctx = *d.ctx;
  switch (c) {
    case Collective::barrier: return make_ibarrier(ctx);
    case Collective::bcast:
      return make_ibcast(ctx, config, buffer, count, datatype, root, d.bytes, d.path == kBcastCma);
    case Collective::alltoall:
      return make_ialltoall(ctx, config, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                            d.bytes / static_cast<std::uint64_t>(ctx.size), d.path == kAlltoallCma);
  }
  return nullptr;
}

// A persistent operation is set up whole at its initialization, which may wait for the other
// ranks: the lease its size needs is taken now, so that its starts find it held.
int persistent(Collective c, const Decision& d, std::unique_ptr<Operation> op, MPI_Request* request) {
  const Config& config = process_config().config;
  CommContext& ctx = *d.ctx;
  Waiter waiter = Waiter::for_context(ctx, config);
  if (c == Collective::bcast && d.path == kBcastShm && d.bytes > 0 && ctx.node_size > 1)
    cells_for(ctx, config, waiter, d.bytes);
  if (c == Collective::alltoall && d.path == kAlltoallShm && d.bytes > 0)
    staging_for(ctx, config, d.bytes / static_cast<std::uint64_t>(ctx.size), waiter);
  return make_persistent_request(std::move(op), config, request, {c, d.path, d.bytes, d.count});
}

}  // namespace

int barrier(MPI_Comm comm) {
  const Decision d = route_barrier(comm, Form::blocking);
  complete_earlier_operations(d);
  if (d.count) count_call(Collective::barrier, d.path, 0);
  if (d.path == kPmpiPath) return PMPI_Barrier(comm);
  return barrier_shm(*d.ctx, process_config().config);
}

int bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  const Decision d = route_bcast(buffer, count, datatype, root, comm, Form::blocking);
  complete_earlier_operations(d);
  if (d.count) count_call(Collective::bcast, d.path, d.bytes);
  if (d.path == kPmpiPath) return PMPI_Bcast(buffer, count, datatype, root, comm);
  return bcast_shm(*d.ctx, process_config().config, buffer, count, datatype, root, d.bytes, d.path == kBcastCma);
}

int alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  const Decision d = route_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, Form::blocking);
  complete_earlier_operations(d);
  if (d.count) count_call(Collective::alltoall, d.path, d.bytes);
  if (d.path == kPmpiPath)
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  const Config& config = process_config().config;
  const std::uint64_t block = d.bytes / static_cast<std::uint64_t>(d.ctx->size);
  if (d.path == kAlltoallCma)
    return alltoall_single_copy(*d.ctx, config, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                recvtype, block);
  return alltoall_shm(*d.ctx, config, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                      block);
}

int ibarrier(MPI_Comm comm, MPI_Request* request) {
  const Decision d = route_barrier(comm, Form::nonblocking);
  if (d.count) count_call(Collective::barrier, d.path, 0, CallKind::nonblocking);
  if (d.path == kPmpiPath) return PMPI_Ibarrier(comm, request);
  return post_operation(make_ibarrier(*d.ctx), process_config().config, request);
}

int ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request* request) {
  const Decision d = route_bcast(buffer, count, datatype, root, comm, Form::nonblocking);
  if (d.count) count_call(Collective::bcast, d.path, d.bytes, CallKind::nonblocking);
  if (d.path == kPmpiPath) return PMPI_Ibcast(buffer, count, datatype, root, comm, request);
  return post_operation(make_operation(Collective::bcast, d, buffer, count, datatype, root, nullptr, 0,
                                       MPI_DATATYPE_NULL, nullptr, 0, MPI_DATATYPE_NULL),
                        process_config().config, request);
}

int ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  const Decision d = route_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, Form::nonblocking);
  if (d.count) count_call(Collective::alltoall, d.path, d.bytes, CallKind::nonblocking);
  if (d.path == kPmpiPath)
    return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
  return post_operation(make_operation(Collective::alltoall, d, nullptr, 0, MPI_DATATYPE_NULL, 0, sendbuf, sendcount,
                                       sendtype, recvbuf, recvcount, recvtype),
                        process_config().config, request);
}

int barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const Decision d = route_barrier(comm, Form::persistent);
  complete_earlier_operations(d);
  if (d.path == kPmpiPath) {
    if (d.count) count_call(Collective::barrier, d.path, 0, CallKind::persistent);
    return pmpi_barrier_init(comm, info, request);
  }
  return persistent(Collective::barrier, d, make_ibarrier(*d.ctx), request);
}

int bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
               MPI_Request* request) {
  const Decision d = route_bcast(buffer, count, datatype, root, comm, Form::persistent);
  complete_earlier_operations(d);
  if (d.path == kPmpiPath) {
    if (d.count) count_call(Collective::bcast, d.path, d.bytes, CallKind::persistent);
    return pmpi_bcast_init(buffer, count, datatype, root, comm, info, request);
  }
  return persistent(Collective::bcast, d,
                    make_operation(Collective::bcast, d, buffer, count, datatype, root, nullptr, 0, MPI_DATATYPE_NULL,
                                   nullptr, 0, MPI_DATATYPE_NULL),
                    request);
}

int alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  const Decision d = route_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, Form::persistent);
  complete_earlier_operations(d);
  if (d.path == kPmpiPath) {
    if (d.count) count_call(Collective::alltoall, d.path, d.bytes, CallKind::persistent);
    return pmpi_alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request);
  }
  return persistent(Collective::alltoall, d,
                    make_operation(Collective::alltoall, d, nullptr, 0, MPI_DATATYPE_NULL, 0, sendbuf, sendcount,
                                   sendtype, recvbuf, recvcount, recvtype),
                    request);
}

int finalize() {
  prepare_finalize();
  complete_all_operations();
  return PMPI_Finalize();
}

}  // namespace mcorecoll
