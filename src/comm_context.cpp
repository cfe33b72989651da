#include "comm_context.hpp"

#include <sched.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "config.hpp"
#include "log.hpp"
#include "node_shm.hpp"
#include "runtime.hpp"

namespace mcorecoll {
namespace {

// The machine's topology (or the synthetic test one), loaded once per process.
const Topology& process_topology(const std::string& synthetic) {
  static std::unique_ptr<Topology> topology;
  static std::string error;
  static std::once_flag once;
  std::call_once(once, [&] {
    try {
      topology = std::make_unique<Topology>(synthetic);
    } catch (const std::exception& e) {
      error = e.what();
    }
  });
  if (!topology) throw std::runtime_error(error);
  return *topology;
}

void check_same_config(MPI_Comm comm, const Config& config) {
  const std::uint64_t fp = config.fingerprint();
  std::uint64_t mine[2] = {fp, ~fp}, most[2];
  PMPI_Allreduce(mine, most, 2, MPI_UINT64_T, MPI_MAX, comm);
  if (most[0] == mine[0] && most[1] == mine[1]) return;
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  say("error: the ranks of a communicator run with different MCORECOLL_* settings (or tuning "
      "files); they would take different paths and deadlock. This rank (" +
      std::to_string(rank) + ") has:\n" + config.describe() + "Stopping the job.");
  stop_job(comm);
}

// Whether the ranks of this node outnumber the CPUs that any of them may run on.
bool node_oversubscribed(MPI_Comm node_comm, int node_size) {
  cpu_set_t mine, all;
  CPU_ZERO(&mine);
  if (sched_getaffinity(0, sizeof(mine), &mine) != 0) return true;  // unknown: be polite
  PMPI_Allreduce(&mine, &all, static_cast<int>(sizeof(cpu_set_t)), MPI_BYTE, MPI_BOR, node_comm);
  return node_size > CPU_COUNT(&all);
}

}  // namespace

std::unique_ptr<CommContext> CommContext::build(MPI_Comm comm, const Config& config) {
  auto ctx = std::make_unique<CommContext>();
  ctx->comm = comm;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) {
    PMPI_Comm_rank(comm, &ctx->rank);
    PMPI_Comm_remote_size(comm, &ctx->size);  // alltoall statistics count remote blocks
    ctx->pmpi_reason = "intercommunicator";
    return ctx;
  }
  PMPI_Comm_rank(comm, &ctx->rank);
  PMPI_Comm_size(comm, &ctx->size);
  if (ctx->size == 1) {
    ctx->pmpi_reason = "communicator of one rank";
    return ctx;
  }
  // The settings are checked even when disabled: a rank disabled alone would deadlock too.
  check_same_config(comm, config);
  if (config.disable) {
    ctx->pmpi_reason = "MCORECOLL_DISABLE is set";
    return ctx;
  }

  PMPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, ctx->rank, MPI_INFO_NULL, &ctx->node_comm);
  if (config.test_node_size > 0) {  // test knob: cut each real node into pretend nodes
    // By rank in MPI_COMM_WORLD, so that a process stays on its pretend node in every
    // communicator (as on a real node), and reordered communicators see their ranks spread
    // over the nodes non-consecutively.
    int real_rank = 0, world_rank = 0;
    PMPI_Comm_rank(ctx->node_comm, &real_rank);
    PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm pretend = MPI_COMM_NULL;
    PMPI_Comm_split(ctx->node_comm, world_rank / config.test_node_size, real_rank, &pretend);
    PMPI_Comm_free(&ctx->node_comm);
    ctx->node_comm = pretend;
  }
  PMPI_Comm_rank(ctx->node_comm, &ctx->node_rank);
  PMPI_Comm_size(ctx->node_comm, &ctx->node_size);
  PMPI_Comm_split(comm, ctx->node_rank == 0 ? 0 : MPI_UNDEFINED, ctx->rank, &ctx->leaders_comm);
  int node_info[2] = {0, 1};  // index of this node among the leaders, number of nodes
  if (ctx->leaders_comm != MPI_COMM_NULL) {
    PMPI_Comm_rank(ctx->leaders_comm, &node_info[0]);
    PMPI_Comm_size(ctx->leaders_comm, &node_info[1]);
  }
  PMPI_Bcast(node_info, 2, MPI_INT, 0, ctx->node_comm);
  ctx->node_index = node_info[0];
  ctx->node_count = node_info[1];

  // Where this rank sits. A bad synthetic topology is a settings error: every rank has the
  // same settings (checked above), so every rank stops here alike.
  Place place;
  try {
    const Topology& topology = process_topology(config.test_topology);
    if (config.test_binding.empty()) {
      place = config.test_topology.empty() ? topology.place_of_this_process() : Place{};
    } else {
      const int pu = config.test_binding[static_cast<std::size_t>(ctx->node_rank) %
                                         config.test_binding.size()];
      if (pu >= topology.pu_count())
        throw std::runtime_error("MCORECOLL_TEST_BINDING: PU " + std::to_string(pu) +
                                 " is not in the synthetic topology (it has " +
                                 std::to_string(topology.pu_count()) + " PUs)");
      place = topology.place_of_pus({pu});
    }
  } catch (const std::exception& e) {
    say(std::string("error: ") + e.what() + "; stopping the job.");
    stop_job(comm);
  }
  int mine[6] = {ctx->node_index, ctx->node_rank, place.package, place.numa, place.numa_os,
                 place.cache};
  std::vector<int> all(6 * static_cast<std::size_t>(ctx->size));
  PMPI_Allgather(mine, 6, MPI_INT, all.data(), 6, MPI_INT, comm);
  ctx->places.resize(static_cast<std::size_t>(ctx->size));
  std::vector<Place> node_places(static_cast<std::size_t>(ctx->node_size));
  for (int r = 0; r < ctx->size; ++r) {
    const int* v = &all[6 * static_cast<std::size_t>(r)];
    RankPlace& rp = ctx->places[static_cast<std::size_t>(r)];
    rp.node = v[0];
    rp.node_rank = v[1];
    rp.place = Place{v[2], v[3], v[4], v[5]};
    if (rp.node == ctx->node_index) node_places[static_cast<std::size_t>(rp.node_rank)] = rp.place;
  }
  ctx->node_members.assign(static_cast<std::size_t>(ctx->node_count), {});
  for (int r = 0; r < ctx->size; ++r) {
    const RankPlace& rp = ctx->places[static_cast<std::size_t>(r)];
    auto& members = ctx->node_members[static_cast<std::size_t>(rp.node)];
    const auto at = static_cast<std::size_t>(rp.node_rank);
    if (members.size() <= at) members.resize(at + 1);
    members[at] = r;
  }
  for (const auto& members : ctx->node_members)
    ctx->max_node_size = std::max(ctx->max_node_size, static_cast<int>(members.size()));
  ctx->remote_index.assign(static_cast<std::size_t>(ctx->size), -1);
  int remote = 0;
  for (int node = 0; node < ctx->node_count; ++node)
    if (node != ctx->node_index)
      for (int r : ctx->node_members[static_cast<std::size_t>(node)]) ctx->remote_index[static_cast<std::size_t>(r)] = remote++;
  ctx->hierarchy = build_hierarchy(node_places);
  const std::vector<int> parent = build_tree(ctx->hierarchy, ctx->node_size, config.barrier_radix);
  ctx->tree_parent = parent[static_cast<std::size_t>(ctx->node_rank)];
  for (int r = 0; r < ctx->node_size; ++r)
    if (parent[static_cast<std::size_t>(r)] == ctx->node_rank) ctx->tree_children.push_back(r);
  ctx->oversubscribed = node_oversubscribed(ctx->node_comm, ctx->node_size);
  ctx->ring_consumed_known.assign(static_cast<std::size_t>(ctx->node_size), 0);
  // Decided from values equal on all ranks: every node holds exactly one rank.
  if (ctx->node_count == ctx->size) ctx->pmpi_reason = "one rank per node";
  return ctx;
}

CommContext::~CommContext() {
  shm.reset();
  if (node_comm != MPI_COMM_NULL) PMPI_Comm_free(&node_comm);
  if (leaders_comm != MPI_COMM_NULL) PMPI_Comm_free(&leaders_comm);
}

std::string CommContext::describe() const {
  std::ostringstream out;
  if (!pmpi_reason.empty()) {
    out << "  every call goes to PMPI: " << pmpi_reason << "\n";
    return out.str();
  }
  out << "  node " << node_index << " of " << node_count << ", node rank " << node_rank << " of "
      << node_size << (oversubscribed ? " (oversubscribed: waits yield)" : "") << "\n";
  const Place& p = places[static_cast<std::size_t>(rank)].place;
  out << "  place: package " << p.package << ", numa " << p.numa << ", cache " << p.cache
      << " (-1: unbound or spanning)\n";
  std::istringstream levels(mcorecoll::describe(hierarchy));
  for (std::string line; std::getline(levels, line);) out << "  node levels: " << line << "\n";
  return out.str();
}

}  // namespace mcorecoll
