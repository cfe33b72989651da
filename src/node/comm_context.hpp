// Everything mcorecoll knows about one communicator, cached on it as an MPI attribute: made
// without communication on its first intercepted call, set up collectively (where its ranks
// are, its shared memory) on its Nth (MCORECOLL_SETUP_AFTER), so that communicators used only
// a few times cost next to nothing. The world's set-up is made inside MPI_Init instead, but
// for its last step, which its Nth collective takes (entry/runtime.cpp).
#pragma once

#include <mpi.h>
#include <sched.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/kept_states.hpp"
#include "decisions/decision_table.hpp"
#include "decisions/route.hpp"
#include "node/lease_protocol.hpp"
#include "topology/hierarchy.hpp"
#include "topology/node_key.hpp"
#include "topology/placement.hpp"

namespace mcorecoll {

class NodeShm;
class Topology;
struct Config;
struct SetUpWindow;

// What every rank tells the others about itself, once per communicator, in one allgather on
// that communicator (MPI_BYTE: the ranks that share memory share an ABI, and ranks on other
// nodes only compare the node key).
struct RankRecord {
  std::uint64_t settings = 0;  // Config::fingerprint(): every rank must have the same
  NodeKey node;
  int place[4] = {-1, -1, -1, -1};  // package, NUMA domain (logical, OS), cache of its binding
  int may_create_communicators = 0;
  int calls_while_blocked = 0;  // progress/progress_helper.hpp's mpi_calls_while_blocked()
  int cpus_known = 0;
  int gpu_runtime = 0;  // a GPU runtime is loaded: its buffers may be device memory
  int thread_multiple = 0;  // initialized with MPI_THREAD_MULTIPLE
  cpu_set_t cpus;  // the CPUs it may run on
};

// Whether a set-up may make communicators here (its leaders' and lanes'): equal on every rank of
// one MPI build and thread level.
bool may_create_communicators();

// A hash of this process's node key (pretend node included): equal on the ranks of one node,
// different on another's but by a chance of 2^-64.
std::uint64_t node_hash(const Config& config);

struct RankPlace {
  int node = 0;       // index of the rank's (pretend) node, 0..node_count-1
  int node_rank = 0;  // rank inside its node communicator
  Place place;
};

// The node machinery's state for one communicator, kept from call to call: its shared memory,
// the sequence numbers its flags carry, its leases, and where each primitive stands.
struct NodeChannel {
  // Shared-memory state of this node, created on first use by an algorithm (null before,
  // and null for good if creating it failed: then shm_failed is set and calls go to PMPI).
  std::unique_ptr<NodeShm> shm;
  bool shm_failed = false;
  // The ring's and the staging areas' leases from the node's pool (by LeaseKind; pool_lease.hpp).
  Lease leases[kLeaseKinds];
  // While a lease's answer is pending: the node rank it waits for (pool_lease.hpp).
  int lease_waits_for = -1;
  // Sequence number of the last shared-memory operation on this communicator; flags carry it.
  std::uint64_t seq = 0;
  // Blocking barriers (and votes) so far: whose turn of the vote words (node_shm.hpp).
  std::uint64_t barriers = 0;
  // Sequence number of the last round in each half of the staging areas: a half is free again
  // once every rank's `done` line has reached it (staged_rounds.hpp).
  std::uint64_t last_stage_seq[2] = {0, 0};
  // Small calls through the record lines: the calls so far (alike on every node rank), and the
  // latest call each node rank is known to have posted (record_lines.hpp).
  std::uint64_t line_calls = 0;
  std::vector<std::uint64_t> line_known;
  // Ring chunks moved so far through this node's ring (same count on every node rank).
  std::uint64_t ring_chunks = 0;
  // Ring chunks each node rank is known to have consumed: seen in its `consumed` line, or
  // implied by a chunk it filled (ring_steps.cpp).
  std::vector<std::uint64_t> ring_consumed_known;
  // Group leaders: the ring chunk (plus one) last relayed to the group (ring_steps.cpp).
  std::uint64_t relayed_chunks = 0;
  // Node leaders: the refusals each of the two duplicates' lines held at its last turn
  // (node/dup_setup.cpp).
  std::uint64_t dup_refusals_seen[2] = {0, 0};
  // Single copy (Cross Memory Attach) allowed on every node: -1 not probed yet, 0 no, 1 yes.
  int single_copy = -1;

  NodeChannel();
  ~NodeChannel();  // lets the segment go
};

// Where the leaders' communicators of duplicates come from (node/dup_setup.hpp): a
// communicator of the node leaders used for nothing but duplicating it, and the next such
// duplicate, made ahead without blocking (MPI_Comm_idup), so that a duplication takes a
// finished one and starts the next. Not the leaders' own communicator: under Open MPI 4.1 a
// communicator made from one beside the non-blocking collectives mcorecoll runs on it takes
// their tags in another order on each leader, and one idup at a time runs on this one. Shared
// by a communicator and its duplicates, whose duplications come in one order on every rank
// (below MPI_THREAD_MULTIPLE; above it each duplicate gets one of its own).
class LeadersSource {
 public:
  explicit LeadersSource(MPI_Comm made);  // starts the first spare
  ~LeadersSource();  // waits for the spare under way (every leader does), frees both
  LeadersSource(const LeadersSource&) = delete;
  LeadersSource& operator=(const LeadersSource&) = delete;
  // The spare, complete: every leader started it at the same duplication, so the wait ends.
  MPI_Comm ready();
  // The spare, taken for a duplicate, and the next one started.
  MPI_Comm take();

 private:
  MPI_Comm comm_;
  MPI_Comm spare_ = MPI_COMM_NULL;
  MPI_Request making_ = MPI_REQUEST_NULL;
};

// How the duplicates, or the parts, of one communicator fared: how many were freed before their
// Nth call (MCORECOLL_SETUP_AFTER), where a set-up at the making never pays back (a program that
// duplicates or splits, calls a few times and frees, in a loop). A free counts into the batch
// since the parent's last making; the making folds the batch into the streak: one that lived
// ends it, else the short ones add to it. Counts, not a sequence, so frees that come in another
// order on each rank between two makings (destructors, finalizers) fold alike. Duplicates'
// fates are equal on every rank below MPI_THREAD_MULTIPLE: a free and a duplication of the
// parent come in one order there (both are collective over the same ranks, which a correct
// program orders alike), and every rank makes as many calls on a duplicate. Parts' are not (a
// part's members were in different parts before), so a part's members agree on them.
struct Fates {
  std::atomic<int> short_in_batch{0}, lived_in_batch{0}, streak{0};
  // The batch folded in; the streak of children freed early since the last that lived.
  int fold() {
    const int lived = lived_in_batch.exchange(0), early = short_in_batch.exchange(0);
    if (lived) streak.store(0);
    else streak.fetch_add(early);
    return streak.load();
  }
};

class CommContext {
 public:
  ~CommContext();

  // Non-empty: every call on this communicator goes to PMPI, for this reason.
  std::string pmpi_reason;
  // Set up (node map, hierarchy, table rows; shared memory comes later, on demand), or known
  // without it to go to PMPI (an intercommunicator, one rank).
  bool set_up = false;
  // The set-up's collective part is made (its node map, rows and shared memory), inside
  // MPI_Init for the world (entry/runtime.cpp): the Nth call completes it in any form,
  // without communication.
  bool prepared = false;
  // Per collective: every call of fewer bytes goes to PMPI, whatever its other arguments
  // (route.hpp's pmpi_below(), entry/fast_handoff.hpp), known at the set-up; 0 before it, and
  // where the statistics count calls or verbose says why.
  std::array<std::uint64_t, kCollectiveCount> pmpi_below = {};
  // Per collective: a bit per size class (decisions/learning.hpp) that learned the MPI
  // library's path in this run, handed on the same way; zero where the statistics count calls
  // or verbose says why (entry/learning.cpp).
  std::array<std::uint64_t, kCollectiveCount> learned_pmpi = {};
  // Intercepted collectives made on it before its set-up: equal on every rank, because every
  // rank makes a communicator's collectives in the same order.
  std::uint64_t calls_before_setup = 0;
  // A set-up made without waiting (node/setup_window.hpp): under way while `window` is held;
  // the call that started it and the call from which its ranks take mcorecoll's paths (0: not
  // made so). Equal on every rank.
  std::unique_ptr<SetUpWindow> window;
  std::uint64_t window_opened_at = 0, window_switched_at = 0;
  // Why a window found it could not set the communicator up (its ranks on more than one node),
  // or null.
  const char* window_refused = nullptr;

  MPI_Comm comm = MPI_COMM_NULL;  // the user's communicator (not owned)
  int rank = 0, size = 0;  // size: the remote group's on an intercommunicator
  bool inter = false;
  // Node rank 0 of every node, when the communicator spans nodes; null on other ranks. Made by
  // the set-up (comm_context.cpp says when that is safe), or taken from a LeadersSource.
  MPI_Comm leaders_comm = MPI_COMM_NULL;
  // The ranks of this one's node rank, one a node, each ranked by its node's index (lanes/):
  // made by make_lanes() at a set-up where the settings send calls to the lanes, else by the
  // first blocking call that takes them; freed with the context. Null on the ranks past the
  // lanes (node rank `lanes` and up, on nodes fuller than the emptiest).
  MPI_Comm lanes_comm = MPI_COMM_NULL;
  // Whether make_lanes() ran: equal on every rank (lanes_comm is not).
  bool lanes_made = false;
  int node_rank = 0, node_size = 1, node_index = 0, node_count = 1;
  // Duplicates (MPI_Comm_dup) of this communicator are set up at the duplication: its set-up
  // (set_up_from, or set_up_like for a duplicate) found it across nodes, with the leaders'
  // communicator made, operations that may span nodes and the setting on
  // (node/dup_setup.hpp). Equal on every rank.
  bool dups_set_up = false;
  // Some rank runs under MPI_THREAD_MULTIPLE: each duplicate then gets a source of its own
  // (two threads may duplicate a communicator and its duplicate at once). Equal on every rank.
  bool any_thread_multiple = false;
  // Duplicates made so far while dups_set_up: equal on every rank.
  std::uint64_t dups = 0;
  // Where dups_set_up: how its duplicates fared (Fates); where splits_set_up: how its parts
  // did; and for a child of such a parent (set up at its making or not), its parent's, which it
  // tells at its free.
  std::shared_ptr<Fates> dup_fates, part_fates, parent_fates;
  // Communicators split from this one (MPI_Comm_split, _split_type, MPI_Comm_create(_group),
  // MPI_Cart_create, MPI_Cart_sub) that span nodes are set up at their making, the first
  // Config::setup_at_split of them: its set-up found it across nodes with the leaders'
  // communicator made and operations that may span nodes. Equal on every rank, and so is
  // `splits`, the splits made so far.
  bool splits_set_up = false;
  std::uint64_t splits = 0;
  // Parts made from it by MPI_Comm_create_group on this rank (its members alone make one, so
  // the count differs between ranks; they agree on it in the part).
  std::uint64_t group_parts = 0;
  // Set up at its making (MPI_Comm_dup, MPI_Comm_split, ...: `made_by`): mcorecoll's paths
  // from call `switch_at` on (0: not made so).
  const char* made_by = nullptr;
  std::uint64_t switch_at = 0;
  // Node leaders only, where dups_set_up: see LeadersSource.
  std::shared_ptr<LeadersSource> leaders_source;
  // The communicator rank of this node's leader (node rank 0).
  int node_leader() const { return node_members[static_cast<std::size_t>(node_index)][0]; }
  int max_node_size = 1;  // ranks on the fullest node
  // How many lanes a call spreads over: the ranks on the emptiest node (node ranks 0 to
  // lanes - 1 of every node carry a slice each).
  int lanes = 1;
  // Node k holds consecutive ranks, after node k-1's (a block distribution): folding each
  // node's contributions, then the nodes' in node order, is a fold in rank order.
  bool nodes_in_rank_order = true;
  std::vector<RankPlace> places;  // by rank in `comm`
  // Ranks of `comm` on each node (by node index), in node-rank order.
  std::vector<std::vector<int>> node_members;
  // Ranks on other nodes numbered in (node, node rank) order: the order in which the node
  // leaders exchange alltoall data. -1 for the ranks of this rank's node.
  std::vector<int> remote_index;
  NodeHierarchy hierarchy;        // of this rank's node
  std::vector<int> node_numa_os;  // the NUMA domain (OS index, -1 unknown) of each node rank
  // This rank's place in the node's gather/release tree (node ranks; parent -1 at the root).
  int tree_parent = -1;
  std::vector<int> tree_children;
  // More ranks on this node than CPUs they may run on: waiting ranks must not spin.
  bool oversubscribed = false;
  // The same of any node of the communicator: equal on every rank, so it may route calls.
  bool any_oversubscribed = false;
  // Per collective: the row of its decision table that auto mode follows on this communicator,
  // chosen by the ranks of its fullest node (decision_table.hpp); null for barrier.
  std::array<const TableRow*, kCollectiveCount> table_rows = {};

  // Non-blocking operations may span nodes here: every rank can make the MPI calls of the
  // leaders' part while its application is blocked elsewhere (MPI_THREAD_MULTIPLE, or the MPI
  // library's progress hook); equal on every rank.
  bool operations_may_span_nodes = false;
  // Some rank had a GPU runtime loaded at the set-up: its buffers may be device memory, which
  // only the MPI library may touch, so calls agree on it first (call_decision.cpp). Equal on
  // every rank.
  bool device_memory_possible = false;

  // What the node machinery keeps for this communicator between calls.
  NodeChannel channel;
  // What the layers above keep on it between calls, each its own type: each algorithm's
  // scratch, the v-forms' header-line memory (entry/), the engine's queue (progress/).
  KeptStates kept;

  // A context not set up yet; no communication.
  static std::unique_ptr<CommContext> make(MPI_Comm comm);
  // Its set-up's work (the caller marks it set up, entry/runtime.cpp); collective over `comm`.
  // Aborts the job (naming the reason) when the ranks run with different settings. `calls_while_blocked`: this process's MPI library progresses
  // mcorecoll's operations while the application is blocked elsewhere
  // (progress/progress_helper.hpp's mpi_calls_while_blocked()).
  void set_up_now(const Config& config, bool calls_while_blocked);
  // Its parts: this rank's record (stops the job on a bad synthetic topology), and everything
  // the ranks' records tell, once every rank has every record (no communication where the
  // communicator lies inside one node).
  RankRecord own_record(const Config& config, bool calls_while_blocked) const;
  void set_up_from(const std::vector<RankRecord>& all, const Config& config);
  // Everything but the node channel and the leaders' communicator, from the context of the
  // communicator this one duplicates (the same ranks in the same order): no communication.
  void set_up_like(const CommContext& parent);
  // Whether every node holds as many of the communicator's ranks.
  bool nodes_of_equal_size() const { return max_node_size * node_count == size; }
  // Whether lanes may carry calls here: across nodes of equal size, or of different sizes with
  // two ranks or more on each (one lane would be the leaders' composition).
  bool lanes_fit() const { return node_count > 1 && (nodes_of_equal_size() || lanes > 1); }
  // Makes lanes_comm: collective over `comm`, every rank in a call no other collective of the
  // communicator runs beside.
  void make_lanes() {
    PMPI_Comm_split(comm, node_rank < lanes ? node_rank : MPI_UNDEFINED, node_index, &lanes_comm);
    lanes_made = true;
  }
  // Whether the ranks of `part`, a communicator of some of this one's ranks, lie on more than
  // one of its nodes with two or more on some node (one rank a node goes to the MPI library
  // whole); no communication (its group against this one's).
  bool spans_nodes(MPI_Comm part) const;

  // One paragraph for mcorecoll-info: node, hierarchy, places.
  std::string describe() const;
  // What route.hpp's explain_routes() needs to know of this communicator.
  CommunicatorView view() const;
  // The node's topology (loaded once per process); where hwloc cannot load it, the job stops
  // with the reason.
  const Topology& topology_or_stop(const Config& config) const;
};

}  // namespace mcorecoll
