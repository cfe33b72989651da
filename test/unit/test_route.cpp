#include <catch2/catch.hpp>

#include "route.hpp"

using namespace mcorecoll;
using Env = std::vector<std::pair<std::string, std::string>>;

TEST_CASE("barrier takes the shared-memory path in auto mode", "[route]") {
  const Config c = load_config({}).config;
  CHECK(choose_route(Collective::barrier, c, 0).path == 1);
}

TEST_CASE("pmpi mode and disable hand the call back, with the reason", "[route]") {
  Route r = choose_route(Collective::barrier, load_config(Env{{"MCORECOLL_BARRIER", "pmpi"}}).config, 0);
  CHECK(r.path == 0);
  CHECK(std::string(r.reason) == "MCORECOLL_BARRIER=pmpi");
  r = choose_route(Collective::barrier, load_config(Env{{"MCORECOLL_DISABLE", "1"}}).config, 0);
  CHECK(r.path == 0);
  CHECK(std::string(r.reason) == "MCORECOLL_DISABLE is set");
}

TEST_CASE("a forced algorithm is taken", "[route]") {
  CHECK(choose_route(Collective::barrier, load_config(Env{{"MCORECOLL_BARRIER", "shm"}}).config, 0).path == 1);
}

TEST_CASE("collectives without a shared-memory algorithm go to PMPI at every size", "[route]") {
  const Config c = load_config({}).config;
  for (std::uint64_t bytes : {0ull, 1ull, 4096ull, 1ull << 30})
    CHECK(choose_route(Collective::alltoall, c, bytes).path == 0);
}

TEST_CASE("bcast by size: ring up to the single-copy bound, then single copy, then PMPI", "[route]") {
  const Config c = load_config(Env{{"MCORECOLL_BCAST_MAX_BYTES", "1M"},
                                   {"MCORECOLL_BCAST_CMA_MIN_BYTES", "64K"}}).config;
  CHECK(choose_route(Collective::bcast, c, 0).path == kBcastShm);
  CHECK(choose_route(Collective::bcast, c, 65535).path == kBcastShm);
  CHECK(choose_route(Collective::bcast, c, 65536).path == kBcastCma);
  CHECK(choose_route(Collective::bcast, c, 1 << 20).path == kBcastCma);
  const Route above = choose_route(Collective::bcast, c, (1 << 20) + 1);
  CHECK(above.path == 0);
  CHECK(std::string(above.reason) == "bcast message above MCORECOLL_BCAST_MAX_BYTES");
}

TEST_CASE("a forced bcast algorithm ignores the size bounds", "[route]") {
  const Config c = load_config(Env{{"MCORECOLL_BCAST", "shm"}, {"MCORECOLL_BCAST_MAX_BYTES", "1K"}}).config;
  CHECK(choose_route(Collective::bcast, c, 1 << 30).path == kBcastShm);
}
