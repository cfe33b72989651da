#include "catch.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "node/reader_schedule.hpp"
#include "built_in_rows.hpp"  // the data file this build reads (src/meson.build)
#include "decisions/config.hpp"
#include "decisions/route.hpp"

using mcorecoll::load_config;
using mcorecoll::Config;
using mcorecoll::algorithm_names;
using mcorecoll::kAlltoallStaged;
using mcorecoll::kBcastCma;
using mcorecoll::kBcastRing;
using mcorecoll::kPmpiPath;
using mcorecoll::path_index;
using mcorecoll::path_name;
using mcorecoll::parse_size;
using mcorecoll::SegmentKind;
using mcorecoll::ProgressMode;
using mcorecoll::Collective;
using mcorecoll::ConfigLoad;
using mcorecoll::TableRow;
using mcorecoll::kAllCollectives;
using mcorecoll::collective_name;
using mcorecoll::default_rows;
using mcorecoll::format_bands;
using Env = std::vector<std::pair<std::string, std::string>>;

namespace {

bool mentions(const std::vector<std::string>& errors, const std::string& text) {
  for (const auto& e : errors)
    if (e.find(text) != std::string::npos) return true;
  return false;
}

std::string write_file(const std::string& text) {
  char name[] = "/tmp/mcorecoll-unit-XXXXXX";
  const int fd = mkstemp(name);
  REQUIRE(fd >= 0);
  close(fd);
  std::ofstream(name) << text;
  return name;
}

}  // namespace

TEST_CASE("sizes accept bytes and binary K/M/G/T suffixes", "[config]") {
  std::uint64_t b = 0;
  CHECK((parse_size("0", &b) && b == 0));
  CHECK((parse_size("4096", &b) && b == 4096));
  CHECK((parse_size("64K", &b) && b == 65536));
  CHECK((parse_size("64k", &b) && b == 65536));
  CHECK((parse_size("2M", &b) && b == 2u << 20));
  CHECK((parse_size("1G", &b) && b == 1ull << 30));
  CHECK((parse_size("1T", &b) && b == 1ull << 40));
  CHECK((parse_size(" 8K ", &b) && b == 8192));
}

TEST_CASE("sizes reject garbage, negatives and out-of-range values", "[config]") {
  std::uint64_t b = 7;
  for (const char* bad : {"", "K", "-1", "1.5M", "12Q", "1KB", "0x10", "2T", "1025G",
                          "99999999999999999999"}) {
    INFO(bad);
    CHECK_FALSE(parse_size(bad, &b));
  }
  CHECK(b == 7);  // untouched on failure
}

TEST_CASE("defaults with no settings", "[config]") {
  const auto load = load_config({});
  CHECK(load.errors.empty());
  CHECK_FALSE(load.config.disable);
  CHECK_FALSE(load.config.stats);
  CHECK(load.config.mode[0] == "auto");
  CHECK(load.config.mode[1] == "auto");
  CHECK(load.config.mode[2] == "auto");
}

TEST_CASE("valid variables are applied", "[config]") {
  const auto load = load_config(Env{{"MCORECOLL_DISABLE", "yes"},
                                    {"MCORECOLL_STATS", "1"},
                                    {"MCORECOLL_VERBOSE", "2"},
                                    {"MCORECOLL_BARRIER", "shm"},
                                    {"MCORECOLL_BCAST", "pmpi"},
                                    {"MCORECOLL_BARRIER_RADIX", "4"},
                                    {"MCORECOLL_TEST_TOPOLOGY", "pack:2 core:2 pu:1"},
                                    {"MCORECOLL_TEST_BINDING", "0, 2,1,3"},
                                    {"MCORECOLL_TEST_NODE_SIZE", "2"}});
  REQUIRE(load.errors.empty());
  const auto& c = load.config;
  CHECK(c.disable);
  CHECK(c.stats);
  CHECK(c.verbose == 2);
  CHECK(c.mode[0] == "shm");
  CHECK(c.mode[1] == "pmpi");
  CHECK(c.barrier_radix == 4);
  CHECK(c.test_binding == std::vector<int>{0, 2, 1, 3});
  CHECK(c.test_node_size == 2);
}

TEST_CASE("a bad value names the variable, the value and what is accepted", "[config]") {
  const auto load = load_config(Env{{"MCORECOLL_BARRIER", "fast"}});
  REQUIRE(load.errors.size() == 1);
  CHECK(mentions(load.errors, "MCORECOLL_BARRIER"));
  CHECK(mentions(load.errors, "'fast'"));
  CHECK(mentions(load.errors, "auto, pmpi, shm"));
}

TEST_CASE("out-of-range numbers are errors", "[config]") {
  CHECK(load_config(Env{{"MCORECOLL_VERBOSE", "3"}}).errors.size() == 1);
  CHECK(load_config(Env{{"MCORECOLL_VERBOSE", "-1"}}).errors.size() == 1);
  CHECK(load_config(Env{{"MCORECOLL_BARRIER_RADIX", "1"}}).errors.size() == 1);
  CHECK(load_config(Env{{"MCORECOLL_BARRIER_RADIX", "65"}}).errors.size() == 1);
  CHECK(load_config(Env{{"MCORECOLL_SPIN_US", "1000001"}}).errors.size() == 1);
  CHECK(load_config(Env{{"MCORECOLL_STATS", "2"}}).errors.size() == 1);
  CHECK(load_config(Env{{"MCORECOLL_TEST_BINDING", "0,,1"}}).errors.size() == 1);
}

TEST_CASE("an algorithm of another collective is not accepted", "[config]") {
  // cma is a bcast and alltoall algorithm, not a barrier one.
  const auto load = load_config(Env{{"MCORECOLL_BARRIER", "cma"}});
  REQUIRE(load.errors.size() == 1);
  CHECK(mentions(load.errors, "accepted: auto, pmpi, shm"));
  CHECK(load_config(Env{{"MCORECOLL_BCAST", "cma"}}).errors.empty());
  CHECK(load_config(Env{{"MCORECOLL_ALLTOALL", "cma"}}).errors.empty());
  CHECK(mentions(load_config(Env{{"MCORECOLL_ALLTOALL", "ring"}}).errors, "accepted: auto, pmpi, staged, cma"));
  CHECK(mentions(load_config(Env{{"MCORECOLL_BCAST", "staged"}}).errors, "accepted: auto, pmpi, ring, cma, lanes"));
}

// Bcast's and alltoall's shared-memory algorithms are named (ring, staged); "shm", their name
// before, still gives them, so that a job script or tuning file of then keeps its meaning.
TEST_CASE("shm still names bcast's ring and alltoall's staged exchange", "[config]") {
  const Config ring = load_config(Env{{"MCORECOLL_BCAST", "shm"}, {"MCORECOLL_ALLTOALL", "shm"}}).config;
  CHECK(ring.forced_path[static_cast<int>(Collective::bcast)] == kBcastRing);
  CHECK(ring.forced_path[static_cast<int>(Collective::alltoall)] == kAlltoallStaged);
  CHECK(ring.mode[static_cast<int>(Collective::bcast)] == "ring");
  CHECK(ring.mode[static_cast<int>(Collective::alltoall)] == "staged");
  const Config named = load_config(Env{{"MCORECOLL_BCAST", "ring"}, {"MCORECOLL_ALLTOALL", "staged"}}).config;
  CHECK(named.fingerprint() == ring.fingerprint());
  CHECK(path_index(Collective::bcast, "cma") == kBcastCma);
  CHECK(path_index(Collective::gather, "shm") == 1);
  CHECK(path_index(Collective::gather, "ring") == -1);
  CHECK(path_index(Collective::barrier, "pmpi") == kPmpiPath);
  for (Collective c : kAllCollectives)
    for (int p = 0; p <= static_cast<int>(algorithm_names(c).size()); ++p) CHECK(path_index(c, path_name(c, p)) == p);
}

TEST_CASE("segment kind", "[config]") {
  CHECK(load_config(Env{}).config.segment == SegmentKind::automatic);
  CHECK(load_config(Env{{"MCORECOLL_SEGMENT", "memfd"}}).config.segment == SegmentKind::memfd);
  CHECK(load_config(Env{{"MCORECOLL_SEGMENT", "posix"}}).config.segment == SegmentKind::posix);
  CHECK(mentions(load_config(Env{{"MCORECOLL_SEGMENT", "shm"}}).errors, "accepted: auto, memfd, posix"));
  // Ranks that would make segments of different kinds must not pass the settings check.
  CHECK(load_config(Env{{"MCORECOLL_SEGMENT", "posix"}}).config.fingerprint() !=
        load_config(Env{}).config.fingerprint());
}

TEST_CASE("progress mode", "[config]") {
  CHECK(load_config(Env{}).config.progress == ProgressMode::automatic);
  CHECK(load_config(Env{{"MCORECOLL_PROGRESS", "thread"}}).config.progress == ProgressMode::thread);
  CHECK(load_config(Env{{"MCORECOLL_PROGRESS", "auto"}}).config.progress == ProgressMode::automatic);
  CHECK(mentions(load_config(Env{{"MCORECOLL_PROGRESS", "threads"}}).errors, "accepted: auto, thread"));
  // The mode that hung correct programs is gone, and saying so names why.
  CHECK(mentions(load_config(Env{{"MCORECOLL_PROGRESS", "calls"}}).errors, "calls was removed"));
  // Ranks may progress differently: the calls they make on shared memory are the same.
  CHECK(load_config(Env{{"MCORECOLL_PROGRESS", "thread"}}).config.fingerprint() ==
        load_config(Env{}).config.fingerprint());
  CHECK(load_config(Env{{"MCORECOLL_PROGRESS", "thread"}}).config.describe().find("MCORECOLL_PROGRESS = thread") !=
        std::string::npos);
}

TEST_CASE("bcast thresholds and ring geometry", "[config]") {
  auto load = load_config(Env{{"MCORECOLL_BCAST_MAX_BYTES", "1M"},
                              {"MCORECOLL_BCAST_CMA_MIN_BYTES", "256K"},
                              {"MCORECOLL_BCAST_READERS", "2"},
                              {"MCORECOLL_RING_CELLS", "4"},
                              {"MCORECOLL_RING_CELL_BYTES", "8K"}});
  REQUIRE(load.errors.empty());
  CHECK(load.config.max_bytes[1] == (1u << 20));
  CHECK(load.config.bcast_cma_min_bytes == (256u << 10));
  CHECK(load.config.bcast_readers == 2);
  CHECK(load_config(Env{{"MCORECOLL_BCAST_READERS", "group"}}).config.bcast_readers == mcorecoll::kReadersByHierarchyGroup);
  CHECK(mentions(load_config(Env{{"MCORECOLL_BCAST_READERS", "socket"}}).errors, "or group (one group per socket, else NUMA domain or cache)"));
  CHECK(load.config.ring_cells == 4);
  CHECK(load.config.ring_cell_bytes == 8192);
  CHECK(mentions(load_config(Env{{"MCORECOLL_RING_CELL_BYTES", "512"}}).errors, "from 1K to 16M"));
  CHECK(load_config(Env{{"MCORECOLL_BCAST_SEGMENT_BYTES", "0"}}).config.bcast_segment_bytes == 0);
  CHECK(load_config(Env{}).config.bcast_relay_max_bytes == 2936);
  CHECK(load_config(Env{{"MCORECOLL_BCAST_RELAY_MAX_BYTES", "0"}}).config.bcast_relay_max_bytes == 0);
  CHECK(mentions(load_config(Env{{"MCORECOLL_BCAST_RELAY_MAX_BYTES", "4K"}}).errors, "0 (no relay) or a byte count up to 2936"));
  CHECK(load_config(Env{{"MCORECOLL_BCAST_RELAY_MAX_BYTES", "0"}}).config.fingerprint() !=
        load_config(Env{}).config.fingerprint());
  CHECK(load_config(Env{{"MCORECOLL_BCAST_SEGMENT_BYTES", "64K"}}).config.bcast_segment_bytes == 65536);
  CHECK(mentions(load_config(Env{{"MCORECOLL_BCAST_SEGMENT_BYTES", "100"}}).errors, "0 (no pipeline) or a byte count from 4K"));
  CHECK(mentions(load_config(Env{{"MCORECOLL_RING_CELLS", "1"}}).errors, "from 2 to 256"));
  CHECK(mentions(load_config(Env{{"MCORECOLL_BCAST_MAX_BYTES", "lots"}}).errors, "MCORECOLL_BCAST_MAX_BYTES"));
  CHECK(mentions(load_config(Env{{"MCORECOLL_BARRIER_MAX_BYTES", "1K"}}).errors, "unknown setting"));
  load = load_config(Env{{"MCORECOLL_ALLTOALL_MAX_BYTES", "2K"}, {"MCORECOLL_ALLTOALL_STAGE_BYTES", "8K"}});
  REQUIRE(load.errors.empty());
  CHECK(load.config.max_bytes[2] == 2048);
  CHECK(load.config.alltoall_stage_bytes == 8192);
  CHECK(load_config(Env{}).config.alltoall_readers == 4);
  CHECK(load_config(Env{{"MCORECOLL_ALLTOALL_READERS", "0"}}).config.alltoall_readers == 0);
  CHECK(mentions(load_config(Env{{"MCORECOLL_ALLTOALL_READERS", "-1"}}).errors, "0 (no cap) or an integer from 1 to 4096"));
  CHECK(mentions(load_config(Env{{"MCORECOLL_ALLTOALL_STAGE_BYTES", "1K"}}).errors, "from 4K to 64M"));
  CHECK(load_config(Env{{"MCORECOLL_ALLTOALL_CMA_MIN_BYTES", "128K"}}).config.alltoall_cma_min_bytes == (128u << 10));
  CHECK(mentions(load_config(Env{{"MCORECOLL_ALLTOALL_CMA_MIN_BYTES", "big"}}).errors, "MCORECOLL_ALLTOALL_CMA_MIN_BYTES"));
  // Ranks that would route differently must not pass the settings check.
  CHECK(load_config(Env{{"MCORECOLL_ALLTOALL_CMA_MIN_BYTES", "128K"}}).config.fingerprint() !=
        load_config(Env{}).config.fingerprint());
}

TEST_CASE("a misspelt variable is an error that lists the known ones", "[config]") {
  const auto load = load_config(Env{{"MCORECOLL_BARIER", "pmpi"}});
  REQUIRE(load.errors.size() == 1);
  CHECK(mentions(load.errors, "unknown setting MCORECOLL_BARIER"));
  CHECK(mentions(load.errors, "MCORECOLL_BARRIER,"));
}

TEST_CASE("a binding without a synthetic topology is an error", "[config]") {
  CHECK(mentions(load_config(Env{{"MCORECOLL_TEST_BINDING", "0,1"}}).errors,
                 "needs MCORECOLL_TEST_TOPOLOGY"));
}

TEST_CASE("the tuning file sets the same keys; variables override it", "[config]") {
  const std::string path = write_file(
      "# tuned on a test machine\n"
      "barrier = pmpi   # measured\n"
      "\n"
      "MCORECOLL_BARRIER_RADIX = 3\n"
      "stats = 1\n");
  auto load = load_config(Env{{"MCORECOLL_CONFIG", path}});
  REQUIRE(load.errors.empty());
  CHECK(load.config.mode[0] == "pmpi");
  CHECK(load.config.barrier_radix == 3);
  CHECK(load.config.stats);
  CHECK(load.config.config_file == path);

  load = load_config(Env{{"MCORECOLL_CONFIG", path}, {"MCORECOLL_BARRIER", "shm"}});
  REQUIRE(load.errors.empty());
  CHECK(load.config.mode[0] == "shm");
  std::remove(path.c_str());
}

TEST_CASE("tuning file errors name the file and line", "[config]") {
  const std::string path = write_file("barrier = shm\nbarier = pmpi\nnonsense line\nspin_us = -4\n");
  const auto load = load_config(Env{{"MCORECOLL_CONFIG", path}});
  CHECK(load.errors.size() == 3);
  CHECK(mentions(load.errors, path + ":2: unknown setting MCORECOLL_BARIER"));
  CHECK(mentions(load.errors, path + ":3: expected 'key = value'"));
  CHECK(mentions(load.errors, path + ":4: invalid value '-4' for MCORECOLL_SPIN_US"));
  std::remove(path.c_str());
}

// The built-in rows are data (src/decisions/rows/<mpi>.txt), read by the tuning file's parser:
// the same file given as a tuning file gives the same table, each row's comment its source.
TEST_CASE("the built-in rows are the data file, read as a tuning file is", "[config][table]") {
  const std::string data = std::string(MCORECOLL_SOURCE_ROOT) + "/src/decisions/" + mcorecoll::kBuiltInRowsName;
  const ConfigLoad built_in = load_config({});
  REQUIRE(built_in.errors.empty());
  const ConfigLoad tuned = load_config(Env{{"MCORECOLL_CONFIG", data}});
  REQUIRE(tuned.errors.empty());
  int rows = 0;
  for (Collective c : kAllCollectives) {
    const auto& a = built_in.config.tables[static_cast<int>(c)];
    const auto& b = tuned.config.tables[static_cast<int>(c)];
    REQUIRE(a.size() == b.size());
    for (std::size_t k = 0; k < a.size(); ++k, ++rows) {
      INFO(collective_name(c) << " np " << a[k].ranks);
      CHECK(a[k].ranks == b[k].ranks);
      CHECK(a[k].oversubscribed == b[k].oversubscribed);
      CHECK(format_bands(c, a[k].bands) == format_bands(c, b[k].bands));
      // The data file's comment is the row's source; from a tuning file, after its line.
      CHECK(b[k].source.find("set in the tuning file " + data + ":") == 0);
      CHECK(b[k].source.find("(" + a[k].source + ")") != std::string::npos);
      CHECK(a[k].source == default_rows(c)[k].source);
    }
  }
  CHECK(rows > 50);
}

TEST_CASE("a tuning file's row keeps its comment as its source", "[config][table]") {
  const std::string path = write_file("bcast_paths_np6 = shm:8K pmpi  # measured on node x, 3 runs\n");
  const ConfigLoad load = load_config(Env{{"MCORECOLL_CONFIG", path}});
  REQUIRE(load.errors.empty());
  const TableRow* row = nullptr;
  for (const TableRow& r : load.config.tables[static_cast<int>(Collective::bcast)])
    if (r.ranks == 6) row = &r;
  REQUIRE(row);
  CHECK(row->source == "set in the tuning file " + path + ":1 (measured on node x, 3 runs)");
  std::remove(path.c_str());
}

TEST_CASE("the replaced MCORECOLL_SPIN names its successor", "[config]") {
  const auto load = load_config(Env{{"MCORECOLL_SPIN", "200"}});
  REQUIRE(load.errors.size() == 1);
  CHECK(mentions(load.errors, "MCORECOLL_SPIN (polls) was replaced by MCORECOLL_SPIN_US"));
  CHECK(load_config(Env{{"MCORECOLL_SPIN_US", "50"}}).config.spin_us == 50);
}

TEST_CASE("a missing tuning file is an error", "[config]") {
  const auto load = load_config(Env{{"MCORECOLL_CONFIG", "/nonexistent/mcorecoll.conf"}});
  REQUIRE(load.errors.size() == 1);
  CHECK(mentions(load.errors, "cannot open tuning file '/nonexistent/mcorecoll.conf'"));
}

TEST_CASE("the fingerprint changes with every routing setting, not with verbosity", "[config]") {
  const auto base = load_config({}).config.fingerprint();
  CHECK(load_config(Env{{"MCORECOLL_VERBOSE", "2"}}).config.fingerprint() == base);
  CHECK(load_config(Env{{"MCORECOLL_BARRIER", "pmpi"}}).config.fingerprint() != base);
  CHECK(load_config(Env{{"MCORECOLL_DISABLE", "1"}}).config.fingerprint() != base);
  CHECK(load_config(Env{{"MCORECOLL_STATS", "1"}}).config.fingerprint() != base);
  CHECK(load_config(Env{{"MCORECOLL_BARRIER_RADIX", "2"}}).config.fingerprint() != base);
  CHECK(load_config(Env{{"MCORECOLL_TEST_NODE_SIZE", "2"}}).config.fingerprint() != base);
  CHECK(load_config(Env{{"MCORECOLL_BCAST_MAX_BYTES", "1"}}).config.fingerprint() != base);
  CHECK(load_config(Env{{"MCORECOLL_RING_CELLS", "3"}}).config.fingerprint() != base);
}
