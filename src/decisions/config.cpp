#include "decisions/config.hpp"

#include "built_in_rows.hpp"  // generated from decisions/rows/<mpi>.txt (src/meson.build)

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>

#include "common/hash.hpp"
#include "common/shm_layout.hpp"

extern char** environ;

namespace mcorecoll {
namespace {

constexpr const char* kPrefix = "MCORECOLL_";

// Measured defaults (README, "Performance"): where the shared-memory bcast stops beating the
// MPI library, and where the single copy starts beating copy-in/copy-out. Measured with
// mcorecoll_bench on the development machine: a 2-vCPU AMD EPYC VM (1 package, 1 NUMA node),
// Open MPI 4.1.4 and MPICH 4.0.2, np 2 and 4, 2026-11-21. tools/mcorecoll-tune measures them on
// another machine and writes a tuning file.
// The peers comparison of that day (bench/results/peers) set the upper bounds: the bcast ring
// won at 16 KiB against Open MPI (0.62-0.98x) but lost against MPICH (1.5-2x), where 4 KiB
// still won (0.67-0.71x); alltoall staging lost at 16 KiB blocks against Open MPI's coll/sm
// (1.9x), at np 4 (1.3x) and against MPICH (1.1x), and won everywhere at 4 KiB.
// The single-copy alltoall (2026-11-22, np 2 bound, three runs; np 4 once) then took over from
// 16 KiB blocks: there staging measured 0.72-2.0x of Open MPI's own, the single copy
// 0.87-0.90x (0.82x at np 4); 8 KiB still staged (0.43-0.44x, MPICH 0.34x). Upper bounds: the
// single copy kept ahead up to 128 KiB against Open MPI (0.93x; 0.98-1.04x above at np 2) and
// up to 1 MiB against MPICH (0.95x; 0.99x at 4 MiB).
// The bcast bound against Open MPI came down from 16 KiB to 4 KiB (2026-11-22, np 2, 34
// runs): the VM runs either with fast cache-line transfers between its two cores (a round trip
// of 60 ns) or slow ones (180-330 ns). In the slow state (11 of the 34 runs), the ring
// measured 1.01-1.14x at 8 KiB and 1.84-1.86x at 16 KiB (Open MPI's own copies once, from the
// root's buffer), against 0.48-0.51x at 4 KiB.
constexpr std::uint64_t kDefaultBcastMaxBytes = 4ull << 10;
#if defined(MCORECOLL_FOR_MPICH)
constexpr std::uint64_t kDefaultAlltoallMaxBytes = 1ull << 20;  // per block
#else
constexpr std::uint64_t kDefaultAlltoallMaxBytes = 128ull << 10;  // per block
#endif
constexpr std::uint64_t kDefaultAlltoallCmaMinBytes = 16ull << 10;
constexpr std::uint64_t kDefaultBcastCmaMinBytes = 4ull << 20;
// Bcast across pretend nodes (np 4, nodes of 2, ring forced), two runs each: 256 KiB segments
// took 16 MiB from 16.8-16.9 ms to 11.6-11.8 ms; 64 KiB and 1 MiB did worse than 256 KiB.
constexpr std::uint64_t kDefaultBcastSegmentBytes = 256ull << 10;
// Across real hosts (the multi-host bed, 2 hosts x 2 ranks over TCP, Open MPI, forced, two runs,
// bench/results/bed/openmpi-2x2-forced-*.csv): the leaders' exchange took 0.60-0.82x of the MPI
// library's alltoall at blocks of 1 B-4 KiB and 1.23-3.65x from 16 KiB. (On pretend nodes of one
// machine, where PMPI between nodes is shared memory too, it lost at every size.)
constexpr std::uint64_t kDefaultAlltoallNodesMaxBytes = 4ull << 10;
// Allreduce and reduce across hosts, four forced runs (3 and 4 with the leaders' direct
// exchange): allreduce 0.38-0.95x at 1-16 KiB, 0.77-1.16x at 16-256 B (noise of one TCP round
// trip either way), 1.12-1.23x at 1 MiB; reduce 0.48-0.95x at 1-16 KiB, 0.97-1.16x at 64 KiB.
constexpr std::uint64_t kDefaultReduceNodesMaxBytes = 16ull << 10;
// Allreduce and reduce through the lanes (lanes/reduce_lanes.hpp): off until measured on a cluster; on
// the bed, forced, see doc/multi-host.md.
constexpr std::uint64_t kDefaultLanesMinBytes = 0;
// Allgather across hosts, same four runs: 0.64-0.96x at blocks of 1-16 KiB but 0.73-1.30x at
// 1-256 B and 0.89-1.15x at 256 KiB; with no lower bound to leave the small blocks to the MPI
// library, off by default.
constexpr std::uint64_t kDefaultAllgatherNodesMaxBytes = 0;
constexpr std::uint64_t kDefaultGatherNodesMaxBytes = 0;
// Alltoallv across nodes pays a round of agreement on its largest block before it routes, as
// gatherv does: off (no round paid) until measured on a cluster.
constexpr std::uint64_t kDefaultAlltoallvNodesMaxBytes = 0;
constexpr std::uint64_t kDefaultScanNodesMaxBytes = 0;
// The leaders' exchange of the barrier, the reductions and the allgathers: one message per pair
// of leaders is one network latency where the MPI library's collective of a few ranks takes
// rounds (doc/multi-host.md); a leader's messages grow with the nodes, so beyond a few the
// library's collective. 16: not measured beyond the bed's 3 hosts.
constexpr int kDefaultLeadersDirectMaxNodes = 16;
// Bcast across hosts, same runs: the ring with the leaders' pipelined bcast took 0.35-0.82x of
// Open MPI's at 16-64 KiB, where the np 2 row (measured inside one node) gives the sizes to
// PMPI, and 0.97-1.01x at 256 KiB.
constexpr std::uint64_t kDefaultBcastNodesRingBytes = 64ull << 10;

std::string upper(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  const auto end = s.find_last_not_of(" \t\r\n");
  return s.substr(begin, end - begin + 1);
}

bool parse_int(const std::string& text, long long lo, long long hi, long long* out) {
  if (text.empty()) return false;
  std::size_t i = 0;
  bool negative = false;
  if (text[0] == '-' || text[0] == '+') {
    negative = text[0] == '-';
    i = 1;
  }
  if (i == text.size()) return false;
  long long value = 0;
  for (; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
    if (value > (hi + 1) / 10 + 10) return false;  // far out of range: stop before overflow
    value = value * 10 + (text[i] - '0');
  }
  if (negative) value = -value;
  if (value < lo || value > hi) return false;
  *out = value;
  return true;
}

bool parse_bool(const std::string& text, bool* out) {
  const std::string t = upper(text);
  if (t == "1" || t == "YES" || t == "TRUE" || t == "ON") return *out = true, true;
  if (t == "0" || t == "NO" || t == "FALSE" || t == "OFF") return *out = false, true;
  return false;
}

// One setting: its name without the prefix, what it accepts (for error messages), and how to
// apply a value. apply() returns false when the value is not accepted.
struct Setting {
  std::string name;
  std::string accepted;
  std::function<bool(Config&, const std::string&)> apply;
};

constexpr const char* kAnySize =
    "a byte count up to 1T, optionally with a K, M, G or T suffix (powers of 1024)";

// An integer setting in [lo, hi].
Setting int_setting(const std::string& name, const std::string& accepted, long long lo,
                    long long hi, int Config::*field) {
  return {name, accepted, [lo, hi, field](Config& c, const std::string& v) {
            long long x;
            if (!parse_int(v, lo, hi, &x)) return false;
            c.*field = static_cast<int>(x);
            return true;
          }};
}

// A byte-count setting in [lo, hi].
Setting size_setting(const std::string& name, const std::string& accepted, std::uint64_t lo,
                     std::uint64_t hi, std::uint64_t Config::*field) {
  return {name, accepted, [lo, hi, field](Config& c, const std::string& v) {
            std::uint64_t x;
            if (!parse_size(v, &x) || x < lo || x > hi) return false;
            c.*field = x;
            return true;
          }};
}

// A size bound of the settings before the decision table: given, it decides for its collective.
Setting bound_setting(Collective coll, const std::string& name, std::uint64_t Config::*field) {
  const int i = static_cast<int>(coll);
  return {name, kAnySize, [i, field](Config& c, const std::string& v) {
            std::uint64_t x;
            if (!parse_size(v, &x)) return false;
            c.*field = x;
            c.bounds_set[i] = true;
            return true;
          }};
}

std::vector<Setting> make_settings() {
  std::vector<Setting> s;
  s.push_back({"DISABLE", "0 or 1 (also yes/no, true/false, on/off)",
               [](Config& c, const std::string& v) { return parse_bool(v, &c.disable); }});
  s.push_back({"STATS", "0 or 1 (also yes/no, true/false, on/off)",
               [](Config& c, const std::string& v) { return parse_bool(v, &c.stats); }});
  s.push_back(int_setting("VERBOSE", "an integer from 0 to 2", 0, 2, &Config::verbose));
  for (Collective coll : kAllCollectives) {
    const int i = static_cast<int>(coll);
    std::string accepted = "auto, pmpi";
    for (const auto& algo : algorithm_names(coll)) accepted += ", " + algo;
    if (path_name(coll, 1) != "shm") accepted += ", shm (the same as " + path_name(coll, 1) + ")";
    s.push_back({setting_name(coll), accepted,
                 [coll, i](Config& c, const std::string& v) {
                   const int path = v == "auto" ? -1 : path_index(coll, v);
                   if (v != "auto" && path < 0) return false;
                   c.mode[i] = path < 0 ? v : path_name(coll, path);
                   c.forced_path[i] = path;
                   return true;
                 }});
    // Only collectives that carry data and have a shared-memory path get a size bound.
    if (coll != Collective::barrier && !algorithm_names(coll).empty()) {
      s.push_back({setting_name(coll) + "_MAX_BYTES", kAnySize,
                   [i](Config& c, const std::string& v) {
                     return parse_size(v, &c.max_bytes[i]) && (c.bounds_set[i] = true);
                   }});
    }
  }
  s.push_back({"BARRIER_RADIX", "0 (flat fan-in) or an integer from 2 to 64",
               [](Config& c, const std::string& v) {
                 long long x;
                 if (!parse_int(v, 0, 64, &x) || x == 1) return false;
                 c.barrier_radix = static_cast<int>(x);
                 return true;
               }});
  s.push_back(int_setting("BARRIER_ALL_POLL_MAX",
                          "an integer from 0 to 64 (ranks; 0: always the tree)", 0, 64,
                          &Config::barrier_all_poll_max));
  s.push_back(int_setting("REDUCE_FLAT_MAX",
                          "an integer from 0 to 4096 (ranks; 0: always the tree)", 0, 4096,
                          &Config::reduce_flat_max));
  s.push_back(int_setting("REDUCE_TREE_RADIX", "an integer from 2 to 64", 2, 64, &Config::reduce_tree_radix));
  s.push_back(int_setting("ALLGATHER_FLAT_MAX",
                          "an integer from 0 to 4096 (ranks; 0: always the groups)", 0, 4096,
                          &Config::allgather_flat_max));
  s.push_back(int_setting("SETUP_AFTER", "an integer from 1 to 1000000 (a communicator's Nth collective sets it up)",
                          1, 1000000, &Config::setup_after));
  s.push_back({"SETUP_WORLD_AT_INIT", "0 or 1 (also yes/no, true/false, on/off)",
               [](Config& c, const std::string& v) { return parse_bool(v, &c.setup_world_at_init); }});
  s.push_back({"SETUP_AT_DUP", "0 or 1 (also yes/no, true/false, on/off)",
               [](Config& c, const std::string& v) { return parse_bool(v, &c.setup_at_dup); }});
  s.push_back(int_setting("SETUP_AT_SPLIT",
                          "an integer from 0 to 1000000 (a communicator's first splits set up at their making; 0: none)",
                          0, 1000000, &Config::setup_at_split));
  s.push_back(int_setting("SPIN_US", "an integer from 0 to 1000000 (microseconds of polling before a wait yields)",
                          0, 1000000, &Config::spin_us));
  s.push_back(bound_setting(Collective::bcast, "BCAST_CMA_MIN_BYTES", &Config::bcast_cma_min_bytes));
  s.push_back(size_setting("BCAST_RELAY_MAX_BYTES",
                           "0 (no relay) or a byte count up to " + std::to_string(kRelayBytes), 0,
                           kRelayBytes, &Config::bcast_relay_max_bytes));
  s.push_back({"BCAST_SEGMENT_BYTES",
               "0 (no pipeline) or a byte count from 4K to 1G, optionally with a K, M or G suffix",
               [](Config& c, const std::string& v) {
                 std::uint64_t x;
                 if (!parse_size(v, &x) || (x != 0 && (x < 4096 || x > (1ull << 30)))) return false;
                 c.bcast_segment_bytes = x;
                 return true;
               }});
  s.push_back({"BCAST_READERS",
               "0 (no cap), an integer from 1 to 4096, or group (one group per socket, else NUMA domain or cache)",
               [](Config& c, const std::string& v) {
                 long long x;
                 if (v == "group") x = kReadersByHierarchyGroup;
                 else if (!parse_int(v, 0, 4096, &x)) return false;
                 c.bcast_readers = static_cast<int>(x);
                 return true;
               }});
  s.push_back(int_setting("ALLTOALL_READERS", "0 (no cap) or an integer from 1 to 4096", 0, 4096,
                          &Config::alltoall_readers));
  s.push_back(bound_setting(Collective::alltoall, "ALLTOALL_CMA_MIN_BYTES", &Config::alltoall_cma_min_bytes));
  s.push_back(size_setting("ALLTOALL_NODES_MAX_BYTES", kAnySize, 0, 1ull << 40,
                           &Config::alltoall_nodes_max_bytes));
  s.push_back(size_setting("REDUCE_NODES_MAX_BYTES", kAnySize, 0, 1ull << 40, &Config::reduce_nodes_max_bytes));
  s.push_back(size_setting("LANES_MIN_BYTES", kAnySize, 0, 1ull << 40, &Config::lanes_min_bytes));
  s.push_back(size_setting("ALLGATHER_NODES_MAX_BYTES", kAnySize, 0, 1ull << 40,
                           &Config::allgather_nodes_max_bytes));
  s.push_back(size_setting("GATHER_NODES_MAX_BYTES", kAnySize, 0, 1ull << 40, &Config::gather_nodes_max_bytes));
  s.push_back(size_setting("ALLTOALLV_NODES_MAX_BYTES", kAnySize, 0, 1ull << 40,
                           &Config::alltoallv_nodes_max_bytes));
  s.push_back(size_setting("SCAN_NODES_MAX_BYTES", kAnySize, 0, 1ull << 40, &Config::scan_nodes_max_bytes));
  s.push_back(int_setting("LEADERS_DIRECT_MAX_NODES", "an integer from 1 to 4096", 1, 4096,
                          &Config::leaders_direct_max_nodes));
  s.push_back(size_setting("BCAST_NODES_RING_BYTES", kAnySize, 0, 1ull << 40, &Config::bcast_nodes_ring_bytes));
  s.push_back(size_setting("ALLTOALL_STAGE_BYTES",
                           "a byte count from 4K to 64M, optionally with a K or M suffix", 4096,
                           64u << 20, &Config::alltoall_stage_bytes));
  s.push_back(size_setting("REDUCE_STAGE_BYTES",
                           "a byte count from 4K to 64M, optionally with a K or M suffix", 4096,
                           64u << 20, &Config::reduce_stage_bytes));
  s.push_back(size_setting("POOL_MAX_BYTES", "a byte count from 1M to 1T, optionally with a K, M, G or T suffix",
                           1ull << 20, 1ull << 40, &Config::pool_max_bytes));
  s.push_back({"SEGMENT", "auto, memfd, posix", [](Config& c, const std::string& v) {
                 if (v == "auto") c.segment = SegmentKind::automatic;
                 else if (v == "memfd") c.segment = SegmentKind::memfd;
                 else if (v == "posix") c.segment = SegmentKind::posix;
                 else return false;
                 return true;
               }});
  // "calls" (progress only in the application's calls) was removed: it hung legal programs.
  s.push_back({"PROGRESS", "auto, thread (calls was removed: it could hang correct programs)",
               [](Config& c, const std::string& v) {
                 if (v == "auto") c.progress = ProgressMode::automatic;
                 else if (v == "thread") c.progress = ProgressMode::thread;
                 else return false;
                 return true;
               }});
  s.push_back(int_setting("RING_CELLS", "an integer from 2 to 256", 2, 256, &Config::ring_cells));
  s.push_back(size_setting("RING_CELL_BYTES",
                           "a byte count from 1K to 16M, optionally with a K or M suffix", 1024,
                           16u << 20, &Config::ring_cell_bytes));
  s.push_back({"TEST_TOPOLOGY", "an hwloc synthetic description, e.g. \"pack:2 core:2 pu:1\"",
               [](Config& c, const std::string& v) {
                 if (trim(v).empty()) return false;
                 c.test_topology = v;
                 return true;
               }});
  s.push_back({"TEST_BINDING", "a comma-separated list of PU numbers, e.g. 0,2,1,3",
               [](Config& c, const std::string& v) {
                 std::vector<int> pus;
                 std::stringstream in(v);
                 std::string item;
                 while (std::getline(in, item, ',')) {
                   long long x;
                   if (!parse_int(trim(item), 0, 1 << 20, &x)) return false;
                   pus.push_back(static_cast<int>(x));
                 }
                 if (pus.empty()) return false;
                 c.test_binding = pus;
                 return true;
               }});
  s.push_back(int_setting("TEST_NODE_SIZE", "0 (off) or a positive number of ranks per pretend node",
                          0, 1 << 20, &Config::test_node_size));
  s.push_back(int_setting("TEST_WINDOW_PAUSE_US", "0 (off) or microseconds", 0, 10000000,
                          &Config::test_window_pause_us));
  s.push_back({"LEARN", "auto or off",
               [](Config& c, const std::string& v) {
                 if (v != "auto" && v != "off") return false;
                 c.learn = v == "auto";
                 return true;
               }});
  s.push_back({"REPORT", "a file path: the job's report (JSON) is written there at MPI_Finalize",
               [](Config& c, const std::string& v) {
                 if (v.empty()) return false;
                 c.report = v;
                 return true;
               }});
  s.push_back({"LEARN_DIR", "an absolute directory path, or none (nothing remembered across jobs)",
               [](Config& c, const std::string& v) {
                 if (v != "none" && (v.empty() || v[0] != '/')) return false;
                 c.learn_dir = v;
                 return true;
               }});
  s.push_back({"TEST_SLOWDOWN",
               "a comma-separated list of collective:path:microseconds, e.g. allreduce:shm:100,bcast:pmpi:50",
               [](Config& c, const std::string& v) {
                 c.test_slowdown_us = {};
                 std::stringstream in(v);
                 std::string item;
                 while (std::getline(in, item, ',')) {
                   const std::size_t a = item.find(':'), b = item.rfind(':');
                   if (a == std::string::npos || a == b) return false;
                   const std::string coll = trim(item.substr(0, a)), path = trim(item.substr(a + 1, b - a - 1));
                   long long us = 0;
                   if (!parse_int(trim(item.substr(b + 1)), 0, 10000000, &us)) return false;
                   bool found = false;
                   for (Collective k : kAllCollectives) {
                     if (collective_name(k) != coll) continue;
                     const int p = path_index(k, path);
                     if (p < 0) return false;
                     c.test_slowdown_us[static_cast<int>(k)][static_cast<std::size_t>(p)] = static_cast<int>(us);
                     found = true;
                   }
                   if (!found) return false;
                 }
                 return true;
               }});
  return s;
}

// Variables of the MCORECOLL_ family that are not library settings: the tuning file's name,
// and the library path that mcorecoll-run reads.
bool is_reserved(const std::string& name) { return name == "CONFIG" || name == "LIB"; }

const std::vector<Setting>& settings() {
  static const std::vector<Setting> table = make_settings();
  return table;
}

constexpr const char* kRowAccepted =
    "size bands in growing order, each a path and the largest size it takes, e.g. \"ring:4K cma:4M pmpi\"";

std::string known_names() {
  std::string names;
  for (const SettingSpec& s : setting_specs()) names += (names.empty() ? "" : ", ") + s.name;
  return names;
}

std::string algorithm_list(Collective c) {
  std::string out;
  for (const auto& a : algorithm_names(c)) out += (out.empty() ? "" : ", ") + a;
  return out;
}

// A row of a decision table: replaces the row of the same node size, or joins the table.
// `source`: where it comes from, for mcorecoll-info and verbose mode.
void apply_row(Config& config, Collective coll, int ranks, bool oversubscribed, const std::string& value,
               const std::string& where, const std::string& source, std::vector<std::string>& errors) {
  TableRow row;
  row.ranks = ranks;
  row.oversubscribed = oversubscribed;
  row.source = source;
  std::string why;
  if (!parse_bands(coll, value, &row.bands, &why)) {
    errors.push_back(where + ": invalid value '" + value + "' for " + kPrefix +
                     row_setting_name(coll, ranks, oversubscribed) + " (" + why +
                     "); accepted: " + kRowAccepted + " (paths: pmpi, " + algorithm_list(coll) + ")");
    return;
  }
  auto& rows = config.tables[static_cast<int>(coll)];
  for (TableRow& r : rows)
    if (r.ranks == ranks && r.oversubscribed == oversubscribed) {
      r = row;
      return;
    }
  rows.push_back(row);
}

// Applies one value; `where` says where it came from ("environment" or "file:line"), `source`
// the same for a row, with its provenance.
void apply(Config& config, const std::string& name, const std::string& value, const std::string& where,
           const std::string& source, std::vector<std::string>& errors) {
  for (const auto& s : settings()) {
    if (s.name != name) continue;
    if (!s.apply(config, value))
      errors.push_back(where + ": invalid value '" + value + "' for " + kPrefix + name +
                       "; accepted: " + s.accepted);
    return;
  }
  Collective coll;
  int ranks = 0;
  bool oversubscribed = false;
  if (parse_row_setting_name(name, &coll, &ranks, &oversubscribed)) {
    apply_row(config, coll, ranks, oversubscribed, value, where, source, errors);
    return;
  }
  if (name == "SPIN") {  // counted polls until 2026-11; its tuning files should say what to change
    errors.push_back(where + ": " + kPrefix + "SPIN (polls) was replaced by " + kPrefix +
                     "SPIN_US (microseconds of polling before a wait yields)");
    return;
  }
  errors.push_back(where + ": unknown setting " + kPrefix + name + "; known settings: " +
                   known_names());
}

// The lines of a tuning file, or of the built-in rows (`built_in`: rows only, each row's
// comment its provenance): "name = value  # comment", blank lines and comments skipped.
void read_text(Config& config, const std::string& text, const std::string& name, bool built_in,
               std::vector<std::string>& errors) {
  std::istringstream in(text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const auto hash = line.find('#');
    const std::string note = hash == std::string::npos ? "" : trim(line.substr(hash + 1));
    if (hash != std::string::npos) line.erase(hash);
    line = trim(line);
    if (line.empty()) continue;
    const std::string where = name + ":" + std::to_string(number);
    const auto eq = line.find('=');
    if (eq == std::string::npos) {
      errors.push_back(where + ": expected 'key = value', got '" + line + "'");
      continue;
    }
    std::string key = upper(trim(line.substr(0, eq)));
    if (key.rfind(kPrefix, 0) == 0) key.erase(0, std::strlen(kPrefix));
    Collective coll;
    int ranks = 0;
    bool oversubscribed = false;
    const bool row = parse_row_setting_name(key, &coll, &ranks, &oversubscribed);
    if (is_reserved(key) || (built_in && !row)) {
      errors.push_back(where + ": " + kPrefix + key + " cannot be set inside " +
                       (built_in ? "the built-in rows (rows only)" : "a tuning file"));
      continue;
    }
    const std::string source = built_in ? (note.empty() ? "built in, " + where : note)
                                        : "set in the tuning file " + where + (note.empty() ? "" : " (" + note + ")");
    apply(config, key, trim(line.substr(eq + 1)), where, source, errors);
  }
}

void read_file(Config& config, const std::string& path, std::vector<std::string>& errors) {
  std::ifstream in(path);
  if (!in) {
    errors.push_back("MCORECOLL_CONFIG: cannot open tuning file '" + path + "': " +
                     std::strerror(errno));
    return;
  }
  std::ostringstream text;
  text << in.rdbuf();
  read_text(config, text.str(), path, false, errors);
}

// One field of the fingerprint, then a separator, so that ("ab","c") != ("a","bc").
std::uint64_t fold(std::uint64_t h, const std::string& s) { return (fnv1a(s, h) ^ 0xff) * 1099511628211ull; }

}  // namespace

const char* segment_kind_name(SegmentKind kind) {
  switch (kind) {
    case SegmentKind::automatic: return "auto";
    case SegmentKind::memfd: return "memfd";
    case SegmentKind::posix: return "posix";
  }
  return "?";
}

bool parse_size(const std::string& raw, std::uint64_t* bytes) {
  const std::string text = trim(raw);
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  if (digits == 0 || digits > 13) return false;
  std::uint64_t value = std::stoull(text.substr(0, digits));
  const std::string suffix = upper(text.substr(digits));
  int shift = 0;
  if (suffix == "") shift = 0;
  else if (suffix == "K") shift = 10;
  else if (suffix == "M") shift = 20;
  else if (suffix == "G") shift = 30;
  else if (suffix == "T") shift = 40;
  else return false;
  constexpr std::uint64_t kLimit = 1ull << 40;
  if (value > (kLimit >> shift)) return false;
  *bytes = value << shift;
  return true;
}

ConfigLoad load_config(const std::vector<std::pair<std::string, std::string>>& env) {
  ConfigLoad out;
  Config& c = out.config;
  // Measured defaults (see README, "Performance"): the barrier's fan-in and spin length.
  c.barrier_radix = 0;
  c.barrier_all_poll_max = 8;
  c.spin_us = 1000;
  c.setup_after = 16;
  c.setup_at_split = 8;
  // Every rank folds every rank's line up to 16 ranks, measured on the lent 16-core machine
  // (doc/performance.md); the tree beyond, of 4 (within 2 log2 n records on the path, and the
  // faster in doc/node-model.md), is predicted (doc/design/reductions.md), not measured: no
  // machine here has more cores.
  c.reduce_flat_max = 16;
  c.reduce_tree_radix = 4;
  // Measured flat at 16 ranks (0.3x of the MPI libraries' at 1-64 B); above, predicted
  // (doc/node-model.md): a rank reads at most 22 lines at 128 ranks where flat reads 127.
  c.allgather_flat_max = 16;
  read_text(c, kBuiltInRows, kBuiltInRowsName, true, out.errors);
  c.max_bytes[static_cast<int>(Collective::bcast)] = kDefaultBcastMaxBytes;
  c.bcast_cma_min_bytes = kDefaultBcastCmaMinBytes;
  c.bcast_readers = 4;
  c.bcast_segment_bytes = kDefaultBcastSegmentBytes;
  // Not measured: it only acts on nodes with several sockets (or NUMA domains, or caches), and
  // the development machine has one. On by default as in the paper's NUMA-aware design.
  c.bcast_relay_max_bytes = kRelayBytes;
  c.max_bytes[static_cast<int>(Collective::alltoall)] = kDefaultAlltoallMaxBytes;
  c.alltoall_stage_bytes = 64 << 10;
  // Measured on the 2-vCPU VM, np 2: allreduce of 1-4 MiB 1.4-1.7x of PMPI through 64 KiB
  // areas (a sync every 32 KiB), 0.7-0.9x through 512 KiB-2 MiB ones.
  c.reduce_stage_bytes = 1 << 20;
  c.alltoall_nodes_max_bytes = kDefaultAlltoallNodesMaxBytes;
  c.reduce_nodes_max_bytes = kDefaultReduceNodesMaxBytes;
  c.lanes_min_bytes = kDefaultLanesMinBytes;
  c.allgather_nodes_max_bytes = kDefaultAllgatherNodesMaxBytes;
  c.gather_nodes_max_bytes = kDefaultGatherNodesMaxBytes;
  c.alltoallv_nodes_max_bytes = kDefaultAlltoallvNodesMaxBytes;
  c.scan_nodes_max_bytes = kDefaultScanNodesMaxBytes;
  c.leaders_direct_max_nodes = kDefaultLeadersDirectMaxNodes;
  c.bcast_nodes_ring_bytes = kDefaultBcastNodesRingBytes;
  c.alltoall_cma_min_bytes = kDefaultAlltoallCmaMinBytes;
  // Binds only with more than 5 ranks on a node. At np 8 on the 2-core machine (4x
  // oversubscribed) 4 against no cap measured 0.63x against 0.56-0.60x of Open MPI for small
  // blocks and 0.22x against 0.21x at 4 KiB: within that machine's noise. 4, as for bcast.
  c.alltoall_readers = 4;
  c.ring_cells = 64;
  c.ring_cell_bytes = 8 << 10;
  // The pool's memory is reserved only as communicators lease it: this bounds it. Enough for
  // the largest leases of a 128-rank node (128 staging areas of 64 KiB, a 64-cell ring) 30
  // times over; not measured on such a node.
  c.pool_max_bytes = 256ull << 20;

  const std::size_t prefix_len = std::strlen(kPrefix);
  for (const auto& [name, value] : env)
    if (name == std::string(kPrefix) + "CONFIG") {
      c.config_file = value;
      read_file(c, value, out.errors);
    }
  for (const auto& [name, value] : env) {
    if (name.rfind(kPrefix, 0) != 0 || is_reserved(name.substr(prefix_len))) continue;
    apply(c, name.substr(prefix_len), value, "environment", "set in the environment", out.errors);
  }
  if (!c.test_binding.empty() && c.test_topology.empty())
    out.errors.push_back("MCORECOLL_TEST_BINDING needs MCORECOLL_TEST_TOPOLOGY (a synthetic topology to bind in)");
  return out;
}

std::vector<std::pair<std::string, std::string>> mcorecoll_environment() {
  std::vector<std::pair<std::string, std::string>> env;
  const std::size_t prefix_len = std::strlen(kPrefix);
  for (char** e = environ; e && *e; ++e) {
    if (std::strncmp(*e, kPrefix, prefix_len) != 0) continue;
    const char* eq = std::strchr(*e, '=');
    if (!eq) continue;
    env.emplace_back(std::string(*e, static_cast<std::size_t>(eq - *e)), std::string(eq + 1));
  }
  std::sort(env.begin(), env.end());
  return env;
}

std::uint64_t Config::fingerprint() const {
  std::uint64_t h = 1469598103934665603ull;
  // Everything that steers routing or the shape of an algorithm; verbose does not.
  h = fold(h, disable ? "1" : "0");
  h = fold(h, stats ? "1" : "0");
  h = fold(h, report.empty() ? "no report" : "report");  // counts every call, as stats does
  h = fold(h, std::to_string(setup_after));
  h = fold(h, setup_world_at_init ? "1" : "0");
  h = fold(h, setup_at_dup ? "dup" : "no dup");
  h = fold(h, "splits " + std::to_string(setup_at_split));
  h = fold(h, learn ? "learn" : "rows");
  for (Collective coll : kAllCollectives) {
    const int i = static_cast<int>(coll);
    h = fold(h, mode[i]);
    h = fold(h, std::to_string(max_bytes[i]));
    h = fold(h, bounds_set[i] ? "bounds" : "table");
    for (const TableRow& r : tables[i])
      h = fold(h, row_setting_name(coll, r.ranks, r.oversubscribed) + "=" + format_bands(coll, r.bands));
  }
  h = fold(h, std::to_string(barrier_radix));
  h = fold(h, std::to_string(barrier_all_poll_max));
  h = fold(h, std::to_string(reduce_flat_max));
  h = fold(h, std::to_string(allgather_flat_max));
  h = fold(h, std::to_string(reduce_tree_radix));
  h = fold(h, std::to_string(bcast_cma_min_bytes));
  h = fold(h, std::to_string(bcast_segment_bytes));
  h = fold(h, std::to_string(bcast_relay_max_bytes));
  h = fold(h, std::to_string(ring_cells));
  h = fold(h, std::to_string(alltoall_stage_bytes));
  h = fold(h, std::to_string(reduce_stage_bytes));
  h = fold(h, std::to_string(alltoall_nodes_max_bytes));
  h = fold(h, std::to_string(reduce_nodes_max_bytes));
  h = fold(h, std::to_string(lanes_min_bytes));
  h = fold(h, std::to_string(allgather_nodes_max_bytes));
  h = fold(h, std::to_string(gather_nodes_max_bytes));
  h = fold(h, std::to_string(alltoallv_nodes_max_bytes));
  h = fold(h, std::to_string(scan_nodes_max_bytes));
  h = fold(h, std::to_string(leaders_direct_max_nodes));
  h = fold(h, std::to_string(bcast_nodes_ring_bytes));
  h = fold(h, std::to_string(alltoall_cma_min_bytes));
  h = fold(h, std::to_string(ring_cell_bytes));
  h = fold(h, segment_kind_name(segment));
  h = fold(h, std::to_string(pool_max_bytes));
  h = fold(h, test_topology);
  for (int pu : test_binding) h = fold(h, std::to_string(pu));
  h = fold(h, std::to_string(test_node_size));
  return h;
}

std::string Config::describe() const {
  std::ostringstream out;
  out << "MCORECOLL_DISABLE = " << disable << "\n";
  out << "MCORECOLL_VERBOSE = " << verbose << "\n";
  out << "MCORECOLL_STATS = " << stats << "\n";
  out << "MCORECOLL_REPORT = " << (report.empty() ? "(not given: no report)" : report) << "\n";
  out << "MCORECOLL_LEARN = " << (learn ? "auto" : "off") << "\n";
  out << "MCORECOLL_LEARN_DIR = "
      << (learn_dir.empty() ? "~/.cache/mcorecoll (not given: $XDG_CACHE_HOME/mcorecoll, else ~/.cache/mcorecoll)" : learn_dir)
      << "\n";
  out << "MCORECOLL_SETUP_AFTER = " << setup_after << "\n";
  out << "MCORECOLL_SETUP_WORLD_AT_INIT = " << setup_world_at_init << "\n";
  out << "MCORECOLL_SETUP_AT_DUP = " << setup_at_dup << "\n";
  out << "MCORECOLL_SETUP_AT_SPLIT = " << setup_at_split << "\n";
  for (Collective coll : kAllCollectives) {
    const int i = static_cast<int>(coll);
    out << kPrefix << setting_name(coll) << " = " << mode[i] << "\n";
    if (coll != Collective::barrier && !algorithm_names(coll).empty())
      out << kPrefix << setting_name(coll) << "_MAX_BYTES = " << max_bytes[i]
          << (bounds_set[i] ? " (given: decides instead of the table)" : " (not given: the table decides)") << "\n";
    for (const TableRow& r : tables[i])
      out << kPrefix << row_setting_name(coll, r.ranks, r.oversubscribed) << " = "
          << format_bands(coll, r.bands) << "    # " << r.source << "\n";
  }
  out << "MCORECOLL_BARRIER_RADIX = " << barrier_radix << "\n";
  out << "MCORECOLL_BARRIER_ALL_POLL_MAX = " << barrier_all_poll_max << "\n";
  out << "MCORECOLL_REDUCE_FLAT_MAX = " << reduce_flat_max << "\n";
  out << "MCORECOLL_ALLGATHER_FLAT_MAX = " << allgather_flat_max << "\n";
  out << "MCORECOLL_REDUCE_TREE_RADIX = " << reduce_tree_radix << "\n";
  out << "MCORECOLL_SPIN_US = " << spin_us << "\n";
  out << "MCORECOLL_BCAST_CMA_MIN_BYTES = " << bcast_cma_min_bytes << "\n";
  out << "MCORECOLL_BCAST_SEGMENT_BYTES = " << bcast_segment_bytes << "\n";
  out << "MCORECOLL_BCAST_RELAY_MAX_BYTES = " << bcast_relay_max_bytes << "\n";
  out << "MCORECOLL_BCAST_READERS = "
      << (bcast_readers == kReadersByHierarchyGroup ? "group" : std::to_string(bcast_readers)) << "\n";
  out << "MCORECOLL_ALLTOALL_READERS = " << alltoall_readers << "\n";
  out << "MCORECOLL_ALLTOALL_CMA_MIN_BYTES = " << alltoall_cma_min_bytes << "\n";
  out << "MCORECOLL_ALLTOALL_NODES_MAX_BYTES = " << alltoall_nodes_max_bytes << "\n";
  out << "MCORECOLL_REDUCE_NODES_MAX_BYTES = " << reduce_nodes_max_bytes << "\n";
  out << "MCORECOLL_LANES_MIN_BYTES = " << lanes_min_bytes << "\n";
  out << "MCORECOLL_ALLGATHER_NODES_MAX_BYTES = " << allgather_nodes_max_bytes << "\n";
  out << "MCORECOLL_GATHER_NODES_MAX_BYTES = " << gather_nodes_max_bytes << "\n";
  out << "MCORECOLL_ALLTOALLV_NODES_MAX_BYTES = " << alltoallv_nodes_max_bytes << "\n";
  out << "MCORECOLL_SCAN_NODES_MAX_BYTES = " << scan_nodes_max_bytes << "\n";
  out << "MCORECOLL_LEADERS_DIRECT_MAX_NODES = " << leaders_direct_max_nodes << "\n";
  out << "MCORECOLL_BCAST_NODES_RING_BYTES = " << bcast_nodes_ring_bytes << "\n";
  out << "MCORECOLL_ALLTOALL_STAGE_BYTES = " << alltoall_stage_bytes << "\n";
  out << "MCORECOLL_REDUCE_STAGE_BYTES = " << reduce_stage_bytes << "\n";
  out << "MCORECOLL_SEGMENT = " << segment_kind_name(segment) << "\n";
  out << "MCORECOLL_POOL_MAX_BYTES = " << pool_max_bytes << "\n";
  out << "MCORECOLL_PROGRESS = " << (progress == ProgressMode::thread ? "thread" : "auto") << "\n";
  out << "MCORECOLL_RING_CELLS = " << ring_cells << "\n";
  out << "MCORECOLL_RING_CELL_BYTES = " << ring_cell_bytes << "\n";
  if (!test_topology.empty()) out << "MCORECOLL_TEST_TOPOLOGY = " << test_topology << "\n";
  if (!test_binding.empty()) {
    out << "MCORECOLL_TEST_BINDING = ";
    for (std::size_t i = 0; i < test_binding.size(); ++i) out << (i ? "," : "") << test_binding[i];
    out << "\n";
  }
  if (test_node_size) out << "MCORECOLL_TEST_NODE_SIZE = " << test_node_size << "\n";
  if (test_window_pause_us) out << "MCORECOLL_TEST_WINDOW_PAUSE_US = " << test_window_pause_us << "\n";
  if (!config_file.empty()) out << "MCORECOLL_CONFIG = " << config_file << "\n";
  return out.str();
}

std::vector<SettingSpec> setting_specs() {
  std::vector<SettingSpec> specs;
  for (const Setting& s : settings()) specs.push_back({kPrefix + s.name, s.accepted});
  for (Collective c : kAllCollectives)
    if (c != Collective::barrier) specs.push_back({kPrefix + setting_name(c) + "_PATHS_NP<N>[_OVERSUBSCRIBED]", kRowAccepted});
  specs.push_back({std::string(kPrefix) + "CONFIG", "the path of a tuning file"});
  specs.push_back({std::string(kPrefix) + "LIB", "the path of libmcorecoll.so (read by mcorecoll-run only)"});
  return specs;
}

std::uint64_t process_fingerprint() {
  static const std::uint64_t fingerprint = process_config().config.fingerprint();
  return fingerprint;
}

bool disabled_by_environment() {
  const char* value = std::getenv("MCORECOLL_DISABLE");
  bool disabled = false;
  return value && parse_bool(value, &disabled) && disabled;
}

std::vector<TableRow> default_rows(Collective c) {
  static const ConfigLoad built_in = load_config({});
  return built_in.config.tables[static_cast<int>(c)];
}

const ConfigLoad& process_config() {
  static const ConfigLoad loaded = load_config(mcorecoll_environment());  // on first use
  return loaded;
}

}  // namespace mcorecoll
