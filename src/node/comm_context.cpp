#include "node/comm_context.hpp"

#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "common/device_memory.hpp"
#include "common/hash.hpp"
#include "common/log.hpp"
#include "decisions/config.hpp"
#include "decisions/route.hpp"
#include "common/stop_job.hpp"
#include "decisions/settings_mismatch.hpp"
#include "node/node_shm.hpp"
#include "node/pool_lease.hpp"
#include "node/setup_window.hpp"
#include "topology/node_map.hpp"

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

// Test knob: the pretend node of this process (MCORECOLL_TEST_NODE_SIZE), by rank in
// MPI_COMM_WORLD, so that a process stays on its pretend node in every communicator (as on a
// real node) and reordered communicators see a node's ranks non-consecutively. Under sessions
// alone (no world) the rank the launcher gave the process (Open MPI's, Hydra's or PMIx's
// variable) stands in for it.
std::uint64_t pretend_node(const Config& config) {
  int initialized = 0, world_rank = -1;
  if (config.test_node_size <= 0) return 0;
  PMPI_Initialized(&initialized);
  if (initialized) {
    PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  } else {
    for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
      if (const char* v = std::getenv(name); v && *v) {
        world_rank = std::atoi(v);
        break;
      }
  }
  if (world_rank < 0) return 0;
  return static_cast<std::uint64_t>(world_rank / config.test_node_size) + 1;
}

// This machine's key (a process never changes node).
const NodeKey& machine_key() {
  static const NodeKey machine = this_process_node_key(0);
  return machine;
}

// Where this process is bound, read again only when the calling thread's CPUs change (hwloc
// reads every thread's binding: tens of microseconds a communicator otherwise).
Place place_of_this_process(const Topology& topology, const cpu_set_t& cpus) {
  static std::mutex mutex;
  static bool known = false;
  static cpu_set_t known_cpus;
  static Place known_place;
  std::lock_guard<std::mutex> lock(mutex);
  if (!known || !CPU_EQUAL(&cpus, &known_cpus)) {
    known_place = topology.place_of_this_process();
    known_cpus = cpus;
    known = true;
  }
  return known_place;
}

RankRecord this_rank(const Config& config, const Topology& topology, bool calls_while_blocked) {
  RankRecord mine;
  mine.settings = &config == &process_config().config ? process_fingerprint() : config.fingerprint();
  mine.node = machine_key();
  mine.node.pretend = pretend_node(config);
  CPU_ZERO(&mine.cpus);
  mine.cpus_known = sched_getaffinity(0, sizeof(mine.cpus), &mine.cpus) == 0 ? 1 : 0;
  if (config.test_topology.empty()) {
    const Place p = place_of_this_process(topology, mine.cpus);
    mine.place[0] = p.package, mine.place[1] = p.numa, mine.place[2] = p.numa_os, mine.place[3] = p.cache;
  }
  mine.may_create_communicators = may_create_communicators() ? 1 : 0;
  mine.calls_while_blocked = calls_while_blocked ? 1 : 0;
  mine.gpu_runtime = look_for_gpu_runtime() ? 1 : 0;
  // Sessions (no MPI_Init): no thread level of the world model to go by; taken as multiple.
  int initialized = 0, level = MPI_THREAD_MULTIPLE;
  PMPI_Initialized(&initialized);
  if (initialized) PMPI_Query_thread(&level);
  mine.thread_multiple = level == MPI_THREAD_MULTIPLE ? 1 : 0;
  return mine;
}

// The place of node rank `node_rank` under MCORECOLL_TEST_BINDING. Every rank has the same
// settings, so a PU outside the topology stops every rank alike.
Place test_binding_place(const Config& config, const Topology& topology, int node_rank, MPI_Comm comm) {
  const int pu = config.test_binding[static_cast<std::size_t>(node_rank) % config.test_binding.size()];
  if (pu >= topology.pu_count()) {
    say("error: MCORECOLL_TEST_BINDING: PU " + std::to_string(pu) +
        " is not in the synthetic topology (it has " + std::to_string(topology.pu_count()) +
        " PUs); stopping the job.");
    stop_job(comm);
  }
  return topology.place_of_pus({pu});
}

bool node_oversubscribed(const std::vector<RankRecord>& all, const std::vector<int>& members) {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  for (int r : members) {
    const RankRecord& rec = all[static_cast<std::size_t>(r)];
    if (!rec.cpus_known) return true;
    CPU_OR(&cpus, &cpus, &rec.cpus);
  }
  return static_cast<int>(members.size()) > CPU_COUNT(&cpus);
}

// The decision-table rows auto mode follows on this communicator: by the ranks of its fullest
// node and whether any node is oversubscribed, both equal on every rank. Verbose mode says
// when no row was measured for that node size.
void choose_table_rows(CommContext& ctx, const Config& config) {
  for (Collective c : kAllCollectives) {
    const TableRow* row = nearest_row(config.tables[static_cast<int>(c)], ctx.max_node_size, ctx.any_oversubscribed);
    ctx.table_rows[static_cast<int>(c)] = row;
    if (row && (row->ranks != ctx.max_node_size || row->oversubscribed != ctx.any_oversubscribed) &&
        config.verbose >= 1 && ctx.rank == 0 && !config.bounds_set[static_cast<int>(c)])
      say_once(std::string(collective_name(c)) + "-row-" + std::to_string(ctx.max_node_size) + "-" +
                   std::to_string(ctx.any_oversubscribed),
               std::string(collective_name(c)) + ": no decision-table row measured for " +
                   std::to_string(ctx.max_node_size) + " ranks per node" +
                   (ctx.any_oversubscribed ? " (oversubscribed)" : "") + "; following the nearest, " +
                   row_setting_name(c, row->ranks, row->oversubscribed) + " (" + row->source + ")");
  }
}

}  // namespace

// Whether this process can create a communicator inside a collective call without risking a
// deadlock with other threads that create communicators at the same time. Below
// MPI_THREAD_MULTIPLE only one thread is inside MPI at any moment. MPICH's context-id
// allocation is made for concurrent threads; Open MPI 4.1's is not (a new id is agreed in an
// order that threads of different processes can see differently), and a creation of ours
// racing the application's own hangs both.
bool may_create_communicators() {
#if defined(MPICH_VERSION)
  return true;
#else
  int initialized = 0;
  PMPI_Initialized(&initialized);
  if (!initialized) return false;  // sessions: no thread level of the world model to go by
  int level = MPI_THREAD_MULTIPLE;
  PMPI_Query_thread(&level);
  return level < MPI_THREAD_MULTIPLE;
#endif
}

std::uint64_t node_hash(const Config& config) {
  const NodeKey& machine = machine_key();
  std::uint64_t h = kFnvBasis;
  for (std::uint64_t word : {machine.boot_hi, machine.boot_lo, machine.pid_namespace, pretend_node(config)})
    h = fnv1a(std::string_view(reinterpret_cast<const char*>(&word), sizeof word), h);
  return h;
}

std::unique_ptr<CommContext> CommContext::make(MPI_Comm comm) {
  auto ctx = std::make_unique<CommContext>();
  ctx->comm = comm;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  PMPI_Comm_rank(comm, &ctx->rank);
  if (inter) {
    ctx->inter = true;
    PMPI_Comm_remote_size(comm, &ctx->size);  // alltoall statistics count remote blocks
    ctx->pmpi_reason = "intercommunicator";
    ctx->set_up = true;
    return ctx;
  }
  PMPI_Comm_size(comm, &ctx->size);
  if (ctx->size == 1) {
    ctx->pmpi_reason = "communicator of one rank";
    ctx->set_up = true;
  }
  return ctx;
}

// A bad synthetic topology is a settings error: every rank has the same settings (checked
// by the set-up), so every rank stops here alike.
const Topology& CommContext::topology_or_stop(const Config& config) const {
  try {
    return process_topology(config.test_topology);
  } catch (const std::exception& e) {
    say(std::string("error: ") + e.what() + "; stopping the job.");
    stop_job(comm);
  }
}

RankRecord CommContext::own_record(const Config& config, bool calls_while_blocked) const {
  return this_rank(config, topology_or_stop(config), calls_while_blocked);
}

void CommContext::set_up_now(const Config& config, bool calls_while_blocked) {
  // Where every rank is: one collective on the application's own communicator, which it is
  // calling right now. No communicator is created to find the node's ranks.
  const RankRecord mine = own_record(config, calls_while_blocked);
  std::vector<RankRecord> all(static_cast<std::size_t>(size));
  PMPI_Allgather(&mine, sizeof(RankRecord), MPI_BYTE, all.data(), sizeof(RankRecord), MPI_BYTE, comm);
  set_up_from(all, config);
}

void CommContext::set_up_from(const std::vector<RankRecord>& all, const Config& config) {
  CommContext* ctx = this;
  const Topology* topology = &topology_or_stop(config);
  const std::size_t n = static_cast<std::size_t>(ctx->size);
  const RankRecord& mine = all[static_cast<std::size_t>(ctx->rank)];
  // The same settings everywhere (every rank sees every record: all stop alike), checked even
  // when the tuning file disables mcorecoll: a rank disabled alone would deadlock too.
  for (const RankRecord& rec : all)
    if (rec.settings != mine.settings) stop_for_different_settings(comm, config);
  if (config.disable) {
    ctx->pmpi_reason = "MCORECOLL_DISABLE is set";
    return;
  }
  std::vector<NodeKey> keys(n);
  for (std::size_t r = 0; r < n; ++r) keys[r] = all[r].node;
  NodeMap map = group_by_node(keys);
  const std::size_t me = static_cast<std::size_t>(ctx->rank);
  ctx->node_index = map.node[me];
  ctx->node_rank = map.node_rank[me];
  ctx->node_count = map.node_count();
  ctx->node_members = std::move(map.members);
  const std::vector<int>& mates = ctx->node_members[static_cast<std::size_t>(ctx->node_index)];
  ctx->node_size = static_cast<int>(mates.size());

  ctx->places.resize(n);
  for (std::size_t r = 0; r < n; ++r) {
    RankPlace& rp = ctx->places[r];
    rp.node = map.node[r];
    rp.node_rank = map.node_rank[r];
    const int* p = all[r].place;
    rp.place = config.test_binding.empty() ? Place{p[0], p[1], p[2], p[3]}
                                           : test_binding_place(config, *topology, rp.node_rank, comm);
  }
  std::vector<Place> node_places;
  for (int r : mates) {
    node_places.push_back(ctx->places[static_cast<std::size_t>(r)].place);
    ctx->node_numa_os.push_back(node_places.back().numa_os);
  }
  int next_rank = 0;
  ctx->lanes = static_cast<int>(ctx->node_members[0].size());
  for (const auto& members : ctx->node_members) {
    ctx->max_node_size = std::max(ctx->max_node_size, static_cast<int>(members.size()));
    ctx->lanes = std::min(ctx->lanes, static_cast<int>(members.size()));
    for (int r : members) ctx->nodes_in_rank_order = ctx->nodes_in_rank_order && r == next_rank++;
  }
  ctx->remote_index.assign(n, -1);
  int remote = 0;
  for (int node = 0; node < ctx->node_count; ++node)
    if (node != ctx->node_index)
      for (int r : ctx->node_members[static_cast<std::size_t>(node)]) ctx->remote_index[static_cast<std::size_t>(r)] = remote++;
  ctx->hierarchy = build_hierarchy(node_places);
  const std::vector<int> parent = build_tree(ctx->hierarchy, ctx->node_size, config.barrier_radix);
  ctx->tree_parent = parent[static_cast<std::size_t>(ctx->node_rank)];
  for (int r = 0; r < ctx->node_size; ++r)
    if (parent[static_cast<std::size_t>(r)] == ctx->node_rank) ctx->tree_children.push_back(r);

  // Oversubscribed: a node's ranks outnumber the CPUs any of them may run on (unknown: be
  // polite). Every rank works it out alike for every node.
  for (int node = 0; node < ctx->node_count; ++node) {
    const bool over = node_oversubscribed(all, ctx->node_members[static_cast<std::size_t>(node)]);
    if (node == ctx->node_index) ctx->oversubscribed = over;
    ctx->any_oversubscribed = ctx->any_oversubscribed || over;
  }
  ctx->channel.ring_consumed_known.assign(static_cast<std::size_t>(ctx->node_size), 0);
  ctx->operations_may_span_nodes = true;
  for (const RankRecord& rec : all) ctx->operations_may_span_nodes = ctx->operations_may_span_nodes && rec.calls_while_blocked;
  for (const RankRecord& rec : all) ctx->device_memory_possible = ctx->device_memory_possible || rec.gpu_runtime;
  for (const RankRecord& rec : all) ctx->any_thread_multiple = ctx->any_thread_multiple || rec.thread_multiple;

  // Decided from values equal on all ranks: the exchange above.
  if (ctx->node_count == ctx->size) {
    ctx->pmpi_reason = "one rank per node";
  } else if (ctx->node_count > 1) {
    // Across nodes the node leaders talk through a communicator of their own. Created only
    // where that is safe on every rank; else the communicator goes to PMPI.
    bool may_create = true;
    for (const RankRecord& rec : all) may_create = may_create && rec.may_create_communicators;
    if (may_create) {
      PMPI_Comm_split(comm, ctx->node_rank == 0 ? 0 : MPI_UNDEFINED, ctx->rank, &ctx->leaders_comm);
      // The lanes' communicator (the ranks of equal node rank), where the settings send calls
      // to the lanes: made now, in a set-up every rank is in, so that the non-blocking and
      // persistent forms, which may not make one, find it (lanes/lanes.hpp). Learning tries
      // the lanes in blocking calls, which make it at the first.
      if (ctx->lanes_fit() && lanes_wanted(config)) ctx->make_lanes();
      // Its duplicates' leaders' communicators come from a source made now, while no operation
      // of mcorecoll's runs on the leaders' communicator (LeadersSource).
      ctx->dups_set_up = config.setup_at_dup && config.segment != SegmentKind::posix && ctx->operations_may_span_nodes;
      if (ctx->dups_set_up) ctx->dup_fates = std::make_shared<Fates>();
      ctx->splits_set_up = config.setup_at_split > 0 && ctx->operations_may_span_nodes;
      if (ctx->splits_set_up) ctx->part_fates = std::make_shared<Fates>();
      if (ctx->dups_set_up && ctx->leaders_comm != MPI_COMM_NULL) {
        MPI_Comm source = MPI_COMM_NULL;
        PMPI_Comm_dup(ctx->leaders_comm, &source);
        ctx->leaders_source = std::make_shared<LeadersSource>(source);
      }
    } else
      ctx->pmpi_reason = "spans nodes under MPI_THREAD_MULTIPLE, where Open MPI 4.1 cannot create the node leaders' communicator safely";
  }
  if (ctx->pmpi_reason.empty()) choose_table_rows(*ctx, config);
}

void CommContext::set_up_like(const CommContext& parent) {
  pmpi_reason = parent.pmpi_reason;
  node_rank = parent.node_rank, node_size = parent.node_size;
  node_index = parent.node_index, node_count = parent.node_count;
  max_node_size = parent.max_node_size;
  lanes = parent.lanes;
  nodes_in_rank_order = parent.nodes_in_rank_order;
  places = parent.places;
  node_members = parent.node_members;
  remote_index = parent.remote_index;
  hierarchy = parent.hierarchy;
  node_numa_os = parent.node_numa_os;
  tree_parent = parent.tree_parent;
  tree_children = parent.tree_children;
  oversubscribed = parent.oversubscribed, any_oversubscribed = parent.any_oversubscribed;
  table_rows = parent.table_rows;
  operations_may_span_nodes = parent.operations_may_span_nodes;
  device_memory_possible = parent.device_memory_possible;
  any_thread_multiple = parent.any_thread_multiple;
  dups_set_up = parent.dups_set_up;
  if (dups_set_up) dup_fates = std::make_shared<Fates>();
  splits_set_up = parent.splits_set_up;
  if (splits_set_up) part_fates = std::make_shared<Fates>();
  channel.ring_consumed_known.assign(static_cast<std::size_t>(node_size), 0);
}

bool CommContext::spans_nodes(MPI_Comm part) const {
  MPI_Group mine = MPI_GROUP_NULL, theirs = MPI_GROUP_NULL;
  PMPI_Comm_group(comm, &mine);
  PMPI_Comm_group(part, &theirs);
  int n = 0;
  PMPI_Group_size(theirs, &n);
  std::vector<int> ranks(static_cast<std::size_t>(n)), here(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) ranks[static_cast<std::size_t>(r)] = r;
  PMPI_Group_translate_ranks(theirs, n, ranks.data(), mine, here.data());
  PMPI_Group_free(&theirs);
  PMPI_Group_free(&mine);
  for (int r : here)
    if (r == MPI_UNDEFINED) return false;  // not a part of this communicator
  std::vector<int> on_node(static_cast<std::size_t>(node_count), 0);
  int nodes = 0;
  bool shared = false;
  for (int r : here) {
    int& count = on_node[static_cast<std::size_t>(places[static_cast<std::size_t>(r)].node)];
    nodes += count == 0;
    shared = shared || count > 0;
    ++count;
  }
  return nodes > 1 && shared;
}

LeadersSource::LeadersSource(MPI_Comm made) : comm_(made) { PMPI_Comm_idup(comm_, &spare_, &making_); }

MPI_Comm LeadersSource::ready() {
  if (making_ != MPI_REQUEST_NULL) PMPI_Wait(&making_, MPI_STATUS_IGNORE);
  return spare_;
}

MPI_Comm LeadersSource::take() {
  const MPI_Comm taken = ready();
  PMPI_Comm_idup(comm_, &spare_, &making_);
  return taken;
}

LeadersSource::~LeadersSource() {
  int finalized = 0;
  PMPI_Finalized(&finalized);
  if (finalized) return;
  if (ready() != MPI_COMM_NULL) PMPI_Comm_free(&spare_);
  PMPI_Comm_free(&comm_);
}

NodeChannel::NodeChannel() = default;
NodeChannel::~NodeChannel() = default;

// The engine has forgotten it already (entry/runtime.cpp's end_context()).
CommContext::~CommContext() {
  drop_window(window);
  drop_leases(*this);
  channel.shm.reset();
  if (leaders_comm != MPI_COMM_NULL) PMPI_Comm_free(&leaders_comm);
  if (lanes_comm != MPI_COMM_NULL) PMPI_Comm_free(&lanes_comm);
}

CommunicatorView CommContext::view() const {
  CommunicatorView v;
  v.pmpi_reason = pmpi_reason;
  v.node_count = node_count;
  v.node_size = node_size;
  v.max_node_size = max_node_size;
  v.any_oversubscribed = any_oversubscribed;
  v.table_rows = table_rows;
  return v;
}

std::string CommContext::describe() const {
  std::ostringstream out;
  if (!pmpi_reason.empty()) {
    out << "  every call goes to PMPI: " << pmpi_reason << "\n";
    return out.str();
  }
  if (switch_at)
    out << "  set up at its " << made_by << " (made from a communicator set up across nodes): mcorecoll's paths "
           "from its call "
        << switch_at << " (a persistent initialization's from its first)\n";
  if (window_switched_at)
    out << "  set up without waiting: opened at its call " << window_opened_at << ", mcorecoll's paths from its call "
        << window_switched_at << "\n";
  out << "  node " << node_index << " of " << node_count << ", node rank " << node_rank << " of "
      << node_size << (oversubscribed ? " (oversubscribed: waits yield)" : "") << "\n";
  const Place& p = places[static_cast<std::size_t>(rank)].place;
  out << "  place: package " << p.package << ", numa " << p.numa << ", cache " << p.cache
      << " (-1: unbound or spanning)\n";
  std::istringstream levels(mcorecoll::describe(hierarchy));
  for (std::string line; std::getline(levels, line);) out << "  node levels: " << line << "\n";
  if (device_memory_possible) {
    const std::string runtime = gpu_runtime_name();
    out << "  device buffers: a GPU runtime is loaded on some rank (" << (runtime.empty() ? "not this one" : runtime)
        << "): a blocking call inside one node, or a persistent one, takes mcorecoll's path only when no rank's buffer "
           "is device memory (the ranks agree first); non-blocking calls, and blocking ones across nodes, go to "
           "the MPI library\n";
  } else {
    out << "  device buffers: no GPU runtime on any rank at the set-up\n";
  }
  return out.str();
}

}  // namespace mcorecoll
