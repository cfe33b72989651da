// Run-time settings: MCORECOLL_* environment variables and the tuning file named by
// MCORECOLL_CONFIG. Parsing is pure (no MPI), so it is unit-tested directly.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "decisions/collective.hpp"
#include "decisions/decision_table.hpp"

namespace mcorecoll {

// Where shared segments come from: a memfd, falling back to POSIX shared memory (auto), or
// only one of them.
enum class SegmentKind { automatic, memfd, posix };

// How the progress helper works (progress_helper.hpp): woken by peers that wait for this rank
// (auto), or stepping as long as operations are pending (thread).
enum class ProgressMode { automatic, thread };

// An array of one value for every collective.
template <typename T>
std::array<T, kCollectiveCount> every(const T& value) {
  std::array<T, kCollectiveCount> a;
  a.fill(value);
  return a;
}

// MCORECOLL_BCAST_READERS=group: the readers of one group of the node's coarsest hierarchy
// level that splits its ranks (socket; else NUMA domain or cache) read together, whatever its
// size (node/reader_schedule.hpp).
constexpr int kReadersByHierarchyGroup = -1;

struct Config {
  bool disable = false;  // MCORECOLL_DISABLE: every call goes to PMPI
  int verbose = 0;       // MCORECOLL_VERBOSE: 0 quiet, 1 say why PMPI was used, 2 also setup details
  bool stats = false;    // MCORECOLL_STATS: per-path counters printed at finalize
  // MCORECOLL_REPORT: the file the job's report (JSON, decisions/report.hpp) is written to at
  // MPI_Finalize by the world's rank 0; empty: none.
  std::string report;
  // Every call counted and timed (entry/call_hooks.hpp): for the statistics or the report.
  bool counted() const { return stats || !report.empty(); }
  // A communicator is set up (its node map and shared memory: collectives of its own) by its
  // Nth intercepted collective; the N-1 before go to PMPI. Communicators used less never pay.
  int setup_after = 0;
  // MPI_COMM_WORLD's set-up made inside MPI_Init but for its last step (entry/runtime.cpp), so
  // that its Nth collective sets it up in any form, a non-blocking one too.
  bool setup_world_at_init = true;
  // A duplicate (MPI_Comm_dup) of a communicator set up across nodes is set up inside the
  // duplication, where every rank may wait (node/dup_setup.hpp), so that one used only with
  // non-blocking collectives takes mcorecoll's paths too.
  bool setup_at_dup = true;
  // The first this many communicators split from a communicator set up across nodes
  // (MPI_Comm_split, MPI_Comm_split_type, MPI_Comm_create(_group), MPI_Cart_create,
  // MPI_Cart_sub) are set up at their making, where every rank may wait, when they span nodes
  // (entry/runtime.cpp's make_part()); 0: none.
  int setup_at_split = 0;
  // MCORECOLL_LEARN: where a size class may take two paths, its first blocking calls try both
  // and the ranks agree on the faster (entry/learning.hpp); false: the rows as they are.
  bool learn = true;
  // MCORECOLL_LEARN_DIR: where what a job learned is remembered for the next
  // (decisions/learned_file.hpp); empty: the user's cache directory; "none": nowhere. Read on
  // the world's rank 0 only, so not part of the fingerprint.
  std::string learn_dir;
  // Per collective: "auto", "pmpi" or one of algorithm_names(c).
  std::array<std::string, kCollectiveCount> mode = every<std::string>("auto");
  // The same, as the router reads it on every call: -1 auto, 0 pmpi, k + 1 algorithm k.
  std::array<int, kCollectiveCount> forced_path = every<int>(-1);
  // Auto mode's decision table per collective (decision_table.hpp): rows by ranks per node,
  // the defaults replaced or joined by MCORECOLL_<X>_PATHS_NP<N>[_OVERSUBSCRIBED] rows.
  std::array<std::vector<TableRow>, kCollectiveCount> tables;
  // Per collective: set when MCORECOLL_<X>_MAX_BYTES or _CMA_MIN_BYTES was given (environment
  // or tuning file, the settings before the table): then these bounds decide for every node
  // size, as they did before, instead of the table.
  std::array<bool, kCollectiveCount> bounds_set = {};
  // Per collective, with bounds_set: largest message (bytes of the type signature) the
  // shared-memory paths take in auto mode; larger calls go to PMPI.
  std::array<std::uint64_t, kCollectiveCount> max_bytes = {};

  // Barrier shape: fan-in of the gather tree inside each group (0 = flat: all members report
  // straight to their leader).
  int barrier_radix = 0;
  // Communicators on one node of at most this many ranks use the all-poll barrier instead.
  int barrier_all_poll_max = 0;
  // Small reductions (a contribution of one record line) on a node of more ranks than this fold
  // over a tree of consecutive ranks of this fan-in instead of every rank folding every line
  // (reduction/reduce_shm.hpp); 0: always the tree.
  int reduce_flat_max = 0;
  int reduce_tree_radix = 0;
  // Allgathers of one record line on a node of more ranks than this go through groups of
  // consecutive ranks (node/line_tree.hpp's LineGroups) instead of every rank reading every
  // line; 0: always the groups.
  int allgather_flat_max = 0;
  // Microseconds a waiting rank polls a flag before it starts yielding the CPU (ignored, as if
  // 0, when the ranks of a node outnumber its CPUs).
  int spin_us = 0;

  // Bcast, with bounds_set: messages from this size on take the single copy (when the node
  // allows it).
  std::uint64_t bcast_cma_min_bytes = 0;
  // Bcast across nodes: segment size of the pipeline between the node phases and the leaders'
  // PMPI_Bcast (0: the whole message at once).
  std::uint64_t bcast_segment_bytes = 0;
  // Bcast inside a node: messages up to this size cross each socket boundary once, through a
  // relay slot of the socket's leader (0: every reader reads the source's cell).
  std::uint64_t bcast_relay_max_bytes = 0;
  // Bcast readers move in groups of at most this many (0: no cap; kReadersByHierarchyGroup:
  // one group per socket), and the groups start on different parts (reader_schedule.hpp).
  int bcast_readers = 0;
  // Alltoall inside one node, with bounds_set: blocks from this size on take the single copy
  // (when the node allows it).
  std::uint64_t alltoall_cma_min_bytes = 0;
  // Alltoall: at most this many ranks copy from one rank's staging area (or, single copy, its
  // memory) at once (0: no cap).
  int alltoall_readers = 0;
  // Alltoall across nodes: largest block that takes the leaders' exchange in auto mode.
  std::uint64_t alltoall_nodes_max_bytes = 0;
  // Allreduce and reduce across nodes: largest message that takes mcorecoll's path in auto mode.
  std::uint64_t reduce_nodes_max_bytes = 0;
  // Across nodes: bcast, allreduce, reduce, the reduce-scatters (the whole vector) and allgather
  // (one block) from this size on take the lanes in auto mode (0: never).
  std::uint64_t lanes_min_bytes = 0;
  // Bcast across nodes: messages up to this size take the ring and the leaders' pipelined bcast
  // in auto mode even where the node's decision table gives them to PMPI.
  std::uint64_t bcast_nodes_ring_bytes = 0;
  // Allgather across nodes: largest block that takes mcorecoll's path in auto mode.
  std::uint64_t allgather_nodes_max_bytes = 0;
  // Gather and scatter across nodes: largest block that takes mcorecoll's path in auto mode.
  std::uint64_t gather_nodes_max_bytes = 0;
  // Alltoallv across nodes: largest block that takes mcorecoll's path in auto mode (0: off, and
  // no round of agreement paid).
  std::uint64_t alltoallv_nodes_max_bytes = 0;
  // Scan and exscan across nodes: largest message that takes mcorecoll's path in auto mode.
  std::uint64_t scan_nodes_max_bytes = 0;
  // Up to this many nodes the leaders exchange one message per pair (progress/leader_messages.hpp).
  int leaders_direct_max_nodes = 0;
  // Alltoall: each rank's staging area; a round moves a tile of every block, area / ranks bytes.
  std::uint64_t alltoall_stage_bytes = 0;
  // Allreduce and reduce: each rank's staging area at most; a round stages half of it.
  std::uint64_t reduce_stage_bytes = 0;
  SegmentKind segment = SegmentKind::automatic;
  ProgressMode progress = ProgressMode::automatic;  // MCORECOLL_PROGRESS
  // The node's pool of ring cells and staging areas (node_pool.hpp): its size at most.
  std::uint64_t pool_max_bytes = 0;
  // The shared ring that copy-in/copy-out stages through: cells and bytes per cell.
  int ring_cells = 0;
  std::uint64_t ring_cell_bytes = 0;

  // Test knobs (documented as such): a synthetic hwloc topology, the PU each node-local rank
  // is pretended to be bound to, and a split of each real node into pretend nodes.
  std::string test_topology;
  std::vector<int> test_binding;
  int test_node_size = 0;
  // MCORECOLL_TEST_SLOWDOWN: microseconds every call of a collective on a path spends waiting
  // before it runs, [collective][path] (tests of the learning: a path made slower on purpose).
  std::array<std::array<int, kMaxPaths>, kCollectiveCount> test_slowdown_us = {};
  // MCORECOLL_TEST_WINDOW_PAUSE_US: a rank that is not the last of its node to take its view of
  // a segment set up without waiting pauses this long right after counting itself (tests of the
  // switch's agreement: node/setup_window.cpp).
  int test_window_pause_us = 0;

  std::string config_file;  // MCORECOLL_CONFIG, for reporting

  // Hash of every setting that changes which path a call takes; compared across the ranks of
  // each communicator, because ranks that route differently deadlock.
  std::uint64_t fingerprint() const;
  // One "name = value" line per setting, for mcorecoll-info.
  std::string describe() const;
};

// The rows this build ships with (decisions/rows/<mpi>.txt, generated into the library), read
// by the parser of tuning files; each row's source is its comment there.
std::vector<TableRow> default_rows(Collective c);

struct ConfigLoad {
  Config config;
  std::vector<std::string> errors;  // each names the setting, the value and what is accepted
};

// Builds the configuration from MCORECOLL_* variables (name, value pairs, as found in the
// environment). If MCORECOLL_CONFIG is among them, the file it names is read first and the
// variables override it.
ConfigLoad load_config(const std::vector<std::pair<std::string, std::string>>& env);

// The MCORECOLL_* entries of this process's environment.
std::vector<std::pair<std::string, std::string>> mcorecoll_environment();

// "auto", "memfd" or "posix", as the setting spells it.
const char* segment_kind_name(SegmentKind kind);

// "4096", "64K", "1m", "2G" (binary multiples) -> bytes. False on anything else.
bool parse_size(const std::string& text, std::uint64_t* bytes);

// Every MCORECOLL_ variable the library and its tools read, with what it accepts: the
// settings, the decision-table rows (one pattern per collective), MCORECOLL_CONFIG and
// MCORECOLL_LIB. doc/settings.md is checked against it (test/unit/test_settings_page.cpp).
struct SettingSpec {
  std::string name;      // "MCORECOLL_RING_CELLS", "MCORECOLL_BCAST_PATHS_NP<N>[_OVERSUBSCRIBED]"
  std::string accepted;  // as error messages say it
};
std::vector<SettingSpec> setting_specs();

// Process-wide configuration, loaded on first use (not at library load).
const ConfigLoad& process_config();
// Its fingerprint (Config::fingerprint()), worked out once: every set-up compares it.
std::uint64_t process_fingerprint();

// MCORECOLL_DISABLE in the environment says yes (1, yes, true, on): read at library load, so
// that none of mcorecoll runs (abi_guard.hpp). A value it does not accept is not a yes: the
// settings' own check reports it on first use.
bool disabled_by_environment();

}  // namespace mcorecoll
