#include "catch.hpp"

#include <fstream>
#include <sstream>

#include "decisions/config.hpp"
#include "decisions/decision_table.hpp"
#include "decisions/route.hpp"

using namespace mcorecoll;
using Env = std::vector<std::pair<std::string, std::string>>;

namespace {

std::vector<Band> bands(Collective c, const std::string& text) {
  std::vector<Band> out;
  std::string error;
  REQUIRE(parse_bands(c, text, &out, &error));
  return out;
}

std::string parse_error(Collective c, const std::string& text) {
  std::vector<Band> out;
  std::string error;
  CHECK_FALSE(parse_bands(c, text, &out, &error));
  return error;
}

TableRow row(int ranks, bool over, const std::string& text) {
  TableRow r;
  r.ranks = ranks;
  r.oversubscribed = over;
  r.bands = bands(Collective::bcast, text);
  return r;
}

}  // namespace

TEST_CASE("size bands parse, print back and give each size its path", "[table]") {
  const std::vector<Band> b = bands(Collective::alltoall, "staged:4K cma:4M pmpi");
  REQUIRE(b.size() == 2);
  CHECK(format_bands(Collective::alltoall, b) == "staged:4K cma:4M pmpi");
  CHECK(band_path(b, 0) == 1);
  CHECK(band_path(b, 4096) == 1);
  CHECK(band_path(b, 4097) == 2);
  CHECK(band_path(b, 4u << 20) == 2);
  CHECK(band_path(b, (4u << 20) + 1) == 0);
  CHECK(format_bands(Collective::bcast, bands(Collective::bcast, "ring:16M")) == "ring:16M pmpi");
  // A row of before bcast's and alltoall's algorithms were named: "shm", printed as named now.
  CHECK(format_bands(Collective::bcast, bands(Collective::bcast, "shm:16M")) == "ring:16M pmpi");
  CHECK(format_bands(Collective::alltoall, bands(Collective::alltoall, "shm:4K cma:1M")) == "staged:4K cma:1M pmpi");
  CHECK(bands(Collective::bcast, "pmpi").empty());
}

TEST_CASE("bad bands are refused with a reason", "[table]") {
  CHECK(parse_error(Collective::bcast, "shm:4K cma:1K") == "bounds must grow ('cma:1K')");
  CHECK(parse_error(Collective::bcast, "staged:4K") == "unknown path 'staged'");
  CHECK(parse_error(Collective::gather, "ring:4K") == "unknown path 'ring'");
  CHECK(parse_error(Collective::bcast, "shm") == "'shm' needs a bound, as in shm:4K");
  CHECK(parse_error(Collective::bcast, "shm:lots") == "'lots' is not a byte count");
  CHECK(parse_error(Collective::bcast, "pmpi shm:4K") == "nothing may follow the closing 'pmpi'");
  CHECK(parse_error(Collective::bcast, "") == "no bands");
}

TEST_CASE("a communicator follows the row of its node size, else the nearest", "[table]") {
  const std::vector<TableRow> rows = {row(2, false, "shm:4K"), row(4, true, "shm:1M"),
                                      row(8, false, "shm:8K"), row(16, false, "shm:16M")};
  CHECK(nearest_row(rows, 16, false)->ranks == 16);
  CHECK(nearest_row(rows, 12, false)->ranks == 16);  // log2: 0.42 from 16, 0.58 from 8
  CHECK(nearest_row(rows, 128, false)->ranks == 16);
  CHECK(nearest_row(rows, 3, false)->ranks == 2);
  CHECK(nearest_row(rows, 4, false)->ranks == 2);  // a tie between 2 and 8: the smaller
  CHECK(nearest_row(rows, 6, false)->ranks == 8);
  // Oversubscribed communicators follow oversubscribed rows while there are any.
  CHECK(nearest_row(rows, 16, true)->ranks == 4);
  CHECK(nearest_row({row(2, false, "shm:4K")}, 16, true)->ranks == 2);
  CHECK(nearest_row({}, 2, false) == nullptr);
}

TEST_CASE("row settings are named by collective, ranks and oversubscription", "[table]") {
  Collective c;
  int ranks = 0;
  bool over = false;
  CHECK(row_setting_name(Collective::bcast, 16, false) == "BCAST_PATHS_NP16");
  REQUIRE(parse_row_setting_name("ALLTOALL_PATHS_NP4_OVERSUBSCRIBED", &c, &ranks, &over));
  CHECK(c == Collective::alltoall);
  CHECK(ranks == 4);
  CHECK(over);
  REQUIRE(parse_row_setting_name("BCAST_PATHS_NP128", &c, &ranks, &over));
  CHECK((c == Collective::bcast && ranks == 128 && !over));
  CHECK_FALSE(parse_row_setting_name("BCAST_PATHS_NP", &c, &ranks, &over));
  CHECK_FALSE(parse_row_setting_name("BCAST_PATHS_NPX", &c, &ranks, &over));
  CHECK_FALSE(parse_row_setting_name("BARRIER_PATHS_NP2", &c, &ranks, &over));
  CHECK_FALSE(parse_row_setting_name("BCAST_PATHS_NP0", &c, &ranks, &over));
}

TEST_CASE("every shipped row parses and its bounds grow", "[table]") {
  for (Collective c : {Collective::bcast, Collective::alltoall}) {
    const std::vector<TableRow> rows = default_rows(c);
    CHECK(rows.size() >= 3);
    for (const TableRow& r : rows) {
      CHECK_FALSE(r.source.empty());
      for (std::size_t k = 1; k < r.bands.size(); ++k) CHECK(r.bands[k].max_bytes > r.bands[k - 1].max_bytes);
    }
  }
}

// A shipped row stays traceable: its source names the files of bench/results it was taken
// from ("[bench/results: a.csv b.csv]"), and they are there.
TEST_CASE("every shipped row names the bench/results files it comes from", "[table]") {
  const std::string tag = "[bench/results: ";
  for (Collective c : {Collective::bcast, Collective::alltoall})
    for (const TableRow& r : default_rows(c)) {
      INFO(collective_name(c) << " row np " << r.ranks << ": " << r.source);
      const auto at = r.source.find(tag);
      REQUIRE(at != std::string::npos);
      const auto end = r.source.find(']', at);
      REQUIRE(end != std::string::npos);
      std::istringstream names(r.source.substr(at + tag.size(), end - at - tag.size()));
      int files = 0;
      for (std::string name; names >> name; ++files) {
        INFO("file " << name);
        CHECK(std::ifstream(std::string(MCORECOLL_SOURCE_ROOT) + "/bench/results/" + name).good());
      }
      CHECK(files > 0);
    }
}

TEST_CASE("auto mode follows the table row, and the bands shown are the router's", "[table][route]") {
  const Config config = load_config({}).config;
  for (Collective c : {Collective::bcast, Collective::alltoall})
    for (const TableRow& r : config.tables[static_cast<int>(c)])
      for (bool spans : {false, true})
        for (std::uint64_t power = 1; power <= (64ull << 20); power *= 2)
          for (std::uint64_t bytes : {power - 1, power, power + 1}) {  // both sides of every bound
            const int routed = choose_route(c, config, bytes, spans, &r).path;
            CHECK(routed == band_path(auto_bands(c, config, spans, &r), bytes));
            if (!spans) CHECK(routed == band_path(r.bands, bytes));
          }
}

TEST_CASE("across nodes a bcast the table leaves to PMPI takes the ring up to its bound", "[table][route]") {
  const Config config = load_config(Env{{"MCORECOLL_BCAST_NODES_RING_BYTES", "64K"}}).config;
  const TableRow r = row(2, false, "shm:4K pmpi:1M shm:4M");
  CHECK(choose_route(Collective::bcast, config, 16384, false, &r).path == 0);  // inside a node: the table
  CHECK(choose_route(Collective::bcast, config, 16384, true, &r).path == kBcastRing);
  CHECK(choose_route(Collective::bcast, config, 65536, true, &r).path == kBcastRing);
  CHECK(choose_route(Collective::bcast, config, 65537, true, &r).path == 0);
  CHECK(choose_route(Collective::bcast, config, 2 << 20, true, &r).path == kBcastRing);  // the table's own band
  CHECK(choose_route(Collective::bcast, config, 8 << 20, true, &r).path == 0);
  for (std::uint64_t power = 1; power <= (16ull << 20); power *= 2)
    for (std::uint64_t bytes : {power - 1, power, power + 1})
      CHECK(choose_route(Collective::bcast, config, bytes, true, &r).path ==
            band_path(auto_bands(Collective::bcast, config, true, &r), bytes));
  // Bounds given by the user decide alone; 0 turns it off.
  const Config bounded = load_config(Env{{"MCORECOLL_BCAST_MAX_BYTES", "4K"}}).config;
  CHECK(choose_route(Collective::bcast, bounded, 16384, true, &r).path == 0);
  const Config off = load_config(Env{{"MCORECOLL_BCAST_NODES_RING_BYTES", "0"}}).config;
  CHECK(choose_route(Collective::bcast, off, 16384, true, &r).path == 0);
  CHECK(choose_route(Collective::bcast, off, 0, true, &r).path == kBcastRing);
}

TEST_CASE("size bounds given decide instead of the table, as before it", "[table][route]") {
  const Config config = load_config(Env{{"MCORECOLL_BCAST_MAX_BYTES", "64K"}}).config;
  const TableRow r = row(16, false, "shm:16M");
  CHECK(choose_route(Collective::bcast, config, 65536, false, &r).path == kBcastRing);
  CHECK(choose_route(Collective::bcast, config, 65537, false, &r).path == 0);
  CHECK(band_path(auto_bands(Collective::bcast, config, false, &r), 65537) == 0);
  // The bands shown are the router's in this mode too, across nodes as well.
  const Config legacy = load_config(Env{{"MCORECOLL_ALLTOALL_MAX_BYTES", "1M"}, {"MCORECOLL_ALLTOALL_CMA_MIN_BYTES", "64K"},
                                        {"MCORECOLL_ALLTOALL_NODES_MAX_BYTES", "16K"},
                                        {"MCORECOLL_BCAST_CMA_MIN_BYTES", "8K"}}).config;
  for (Collective c : {Collective::bcast, Collective::alltoall})
    for (bool spans : {false, true})
      for (std::uint64_t power = 1; power <= (4ull << 20); power *= 2)
        for (std::uint64_t bytes : {power - 1, power, power + 1})
          CHECK(choose_route(c, legacy, bytes, spans, &r).path == band_path(auto_bands(c, legacy, spans, &r), bytes));
  // The other collective still follows its table.
  const TableRow a = {16, false, bands(Collective::alltoall, "shm:4K cma:4M"), "test"};
  CHECK(choose_route(Collective::alltoall, config, 1 << 20, false, &a).path == kAlltoallCma);
}

TEST_CASE("a row set in the environment replaces the shipped one or joins the table", "[table][config]") {
  const ConfigLoad load = load_config(Env{{"MCORECOLL_BCAST_PATHS_NP16", "shm:64K cma:32M"},
                                          {"MCORECOLL_ALLTOALL_PATHS_NP32_OVERSUBSCRIBED", "pmpi"}});
  REQUIRE(load.errors.empty());
  const auto& bcast_rows = load.config.tables[static_cast<int>(Collective::bcast)];
  const TableRow* r16 = nearest_row(bcast_rows, 16, false);
  REQUIRE(r16);
  CHECK(format_bands(Collective::bcast, r16->bands) == "ring:64K cma:32M pmpi");
  CHECK(r16->source == "set in the environment");
  CHECK(bcast_rows.size() == default_rows(Collective::bcast).size());
  const TableRow* r32 = nearest_row(load.config.tables[static_cast<int>(Collective::alltoall)], 32, true);
  REQUIRE(r32);
  CHECK(r32->ranks == 32);
  CHECK(r32->bands.empty());
  CHECK(load.config.fingerprint() != load_config({}).config.fingerprint());
}

TEST_CASE("a bad row is refused, naming the setting and what is accepted", "[table][config]") {
  const ConfigLoad load = load_config(Env{{"MCORECOLL_BCAST_PATHS_NP8", "ring:4K staged:8K"}});
  REQUIRE(load.errors.size() == 1);
  CHECK_THAT(load.errors[0], CATCH_CONTAINS("MCORECOLL_BCAST_PATHS_NP8") && CATCH_CONTAINS("unknown path 'staged'") &&
                                 CATCH_CONTAINS("paths: pmpi, ring, cma, lanes"));
}

// The fast hand-off (entry/fast_handoff.hpp) skips the router for the sizes pmpi_below() gives
// to PMPI: that must be exactly so, or ranks could differ from the router's answer. With
// learning on, across nodes, the sizes above a nodes bound are decided in full (learning may
// try the composition there): fewer sizes handed on, never one the router would take.
TEST_CASE("the sizes handed on by size alone are the router's PMPI sizes from 0", "[table][route]") {
  const std::vector<Env> settings = {
      {},
      {{"MCORECOLL_SCAN", "pmpi"}, {"MCORECOLL_BCAST", "shm"}},
      {{"MCORECOLL_DISABLE", "1"}},
      {{"MCORECOLL_REDUCE_MAX_BYTES", "0"}, {"MCORECOLL_BCAST_CMA_MIN_BYTES", "8K"}},
      {{"MCORECOLL_GATHER_PATHS_NP16", "pmpi"}, {"MCORECOLL_SCATTER_PATHS_NP16", "shm:0 pmpi"},
       {"MCORECOLL_REDUCE_PATHS_NP16", "pmpi:64 pmpi:4K shm:1M pmpi"}},
      {{"MCORECOLL_BCAST_NODES_RING_BYTES", "64K"}, {"MCORECOLL_ALLREDUCE_PATHS_NP4", "pmpi"}}};
  int every = 0, some = 0, none = 0, learning_decides = 0;
  for (const Env& env : settings) {
    const ConfigLoad load = load_config(env);
    REQUIRE(load.errors.empty());
    const Config& config = load.config;
    for (Collective c : kAllCollectives) {
      std::vector<const TableRow*> rows = {nullptr};
      for (const TableRow& r : config.tables[static_cast<int>(c)]) rows.push_back(&r);
      for (const TableRow* r : rows)
        for (bool spans : {false, true}) {
          INFO(collective_name(c) << " row np " << (r ? r->ranks : 0) << (spans ? " across nodes" : ""));
          Config unlearned = config;
          unlearned.learn = false;
          const std::uint64_t below = pmpi_below(c, unlearned, spans, r);
          const std::uint64_t learning_below = pmpi_below(c, config, spans, r);
          CHECK(learning_below <= below);
          if (!spans) CHECK(learning_below == below);
          learning_decides += learning_below < below;
          std::vector<std::uint64_t> sizes = {0, 1, ~0ull, below, below + 1, below - 1};
          for (std::uint64_t power = 2; power <= (1ull << 40); power *= 2)
            for (std::uint64_t bytes : {power - 1, power, power + 1}) sizes.push_back(bytes);
          bool some_size_taken = false;
          for (std::uint64_t bytes : sizes) {
            const bool taken = choose_route(c, config, bytes, spans, r).path != 0;
            some_size_taken |= taken;
            if (bytes < below) CHECK_FALSE(taken);
          }
          CHECK((below == kEverySize) == !some_size_taken);
          if (below != kEverySize) CHECK(choose_route(c, config, below, spans, r).path != 0);  // exact
          (below == kEverySize ? every : below > 0 ? some : none)++;
        }
    }
  }
  CHECK(every > 0);  // all three answers occur among these settings
  CHECK(some > 0);
  CHECK(none > 0);
  CHECK(learning_decides > 0);  // the built-in gather rows across nodes, bound 0, among them
}

TEST_CASE("across nodes an allreduce from the lanes' bound takes the lanes, and the bands shown say so", "[table][route]") {
  const Config config = load_config(Env{{"MCORECOLL_LANES_MIN_BYTES", "1M"}}).config;
  const Config off = load_config({}).config;
  for (const TableRow& r : config.tables[static_cast<int>(Collective::allreduce)]) {
    INFO("allreduce row np " << r.ranks);
    CHECK(choose_route(Collective::allreduce, config, 1 << 20, true, &r).path == kReductionLanes);
    CHECK(choose_route(Collective::allreduce, config, (1 << 20) - 1, true, &r).path == 0);  // above the nodes' bound
    CHECK(choose_route(Collective::allreduce, config, 64 << 20, false, &r).path != kReductionLanes);  // one node
    CHECK(choose_route(Collective::allreduce, off, 64 << 20, true, &r).path == 0);  // off by default
    for (bool spans : {false, true})
      for (std::uint64_t power = 1; power <= (64ull << 20); power *= 2)
        for (std::uint64_t bytes : {power - 1, power, power + 1})
          CHECK(choose_route(Collective::allreduce, config, bytes, spans, &r).path ==
                band_path(auto_bands(Collective::allreduce, config, spans, &r), bytes));
  }
  // Below the nodes' bound: the lanes take over from where they start.
  const Config low = load_config(Env{{"MCORECOLL_LANES_MIN_BYTES", "4K"}}).config;
  const TableRow r = row(2, false, "shm:64K pmpi");
  CHECK(choose_route(Collective::allreduce, low, 4095, true, &r).path == kReductionShm);
  CHECK(choose_route(Collective::allreduce, low, 4096, true, &r).path == kReductionLanes);
  for (std::uint64_t power = 1; power <= (1ull << 20); power *= 2)
    for (std::uint64_t bytes : {power - 1, power, power + 1})
      CHECK(choose_route(Collective::allreduce, low, bytes, true, &r).path ==
            band_path(auto_bands(Collective::allreduce, low, true, &r), bytes));
  // Forced: every size, every placement (the call falls back where the lanes cannot serve).
  const Config forced = load_config(Env{{"MCORECOLL_ALLREDUCE", "lanes"}}).config;
  CHECK(choose_route(Collective::allreduce, forced, 8, false, &r).path == kReductionLanes);
}

TEST_CASE("a reduce across nodes takes the lanes from the same bound", "[table][route]") {
  const Config config = load_config(Env{{"MCORECOLL_LANES_MIN_BYTES", "1M"}}).config;
  for (const TableRow& r : config.tables[static_cast<int>(Collective::reduce)]) {
    INFO("reduce row np " << r.ranks);
    CHECK(choose_route(Collective::reduce, config, 1 << 20, true, &r).path == kReductionLanes);
    CHECK(choose_route(Collective::reduce, config, (1 << 20) - 1, true, &r).path == 0);
    for (std::uint64_t power = 1; power <= (64ull << 20); power *= 2)
      for (std::uint64_t bytes : {power - 1, power, power + 1})
        CHECK(choose_route(Collective::reduce, config, bytes, true, &r).path ==
              band_path(auto_bands(Collective::reduce, config, true, &r), bytes));
  }
}

TEST_CASE("a bcast across nodes takes the lanes from their bound, the ring below it", "[table][route]") {
  for (const char* bound : {"1M", "16K"}) {  // above and below the ring's 64 KiB across nodes
    const Config config = load_config(Env{{"MCORECOLL_LANES_MIN_BYTES", bound}}).config;
    const std::uint64_t from = config.lanes_min_bytes;
    for (const TableRow& r : config.tables[static_cast<int>(Collective::bcast)]) {
      INFO("bcast row np " << r.ranks << ", lanes from " << bound);
      CHECK(choose_route(Collective::bcast, config, from, true, &r).path == kBcastLanes);
      CHECK(choose_route(Collective::bcast, config, from - 1, true, &r).path != kBcastLanes);
      CHECK(choose_route(Collective::bcast, config, from, false, &r).path != kBcastLanes);  // one node
      for (std::uint64_t power = 1; power <= (64ull << 20); power *= 2)
        for (std::uint64_t bytes : {power - 1, power, power + 1})
          CHECK(choose_route(Collective::bcast, config, bytes, true, &r).path ==
                band_path(auto_bands(Collective::bcast, config, true, &r), bytes));
    }
  }
}

TEST_CASE("the route without the lanes is the route of no lanes' bound", "[table][route]") {
  const Config with = load_config(Env{{"MCORECOLL_LANES_MIN_BYTES", "8K"}}).config;
  const Config without = load_config({}).config;
  for (Collective c : {Collective::bcast, Collective::allreduce, Collective::reduce})
    for (const TableRow& r : with.tables[static_cast<int>(c)])
      for (std::uint64_t power = 1; power <= (16ull << 20); power *= 2) {
        INFO(collective_name(c) << " row np " << r.ranks << ", " << power << " bytes");
        CHECK(choose_route(c, with, power, true, &r, false).path == choose_route(c, without, power, true, &r).path);
      }
}
