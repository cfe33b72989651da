#include "catch.hpp"

#include "decisions/route.hpp"

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

TEST_CASE("alltoall by block size: staging up to the bound, then PMPI", "[route]") {
  const Config c = load_config(Env{{"MCORECOLL_ALLTOALL_MAX_BYTES", "4K"}}).config;
  CHECK(choose_route(Collective::alltoall, c, 0).path == 1);
  CHECK(choose_route(Collective::alltoall, c, 4096).path == 1);
  const Route above = choose_route(Collective::alltoall, c, 4097);
  CHECK(above.path == 0);
  CHECK(std::string(above.reason) == "alltoall block above MCORECOLL_ALLTOALL_MAX_BYTES");
}

TEST_CASE("alltoall across nodes: the leaders' exchange up to its own bound", "[route]") {
  Config c = load_config(Env{{"MCORECOLL_ALLTOALL_MAX_BYTES", "4K"},
                             {"MCORECOLL_ALLTOALL_NODES_MAX_BYTES", "256"}}).config;
  CHECK(choose_route(Collective::alltoall, c, 256, true).path == 1);
  CHECK(choose_route(Collective::alltoall, c, 1024, false).path == 1);
  const Route above = choose_route(Collective::alltoall, c, 257, true);
  CHECK(above.path == 0);
  CHECK(std::string(above.reason) == "alltoall across nodes with blocks above MCORECOLL_ALLTOALL_NODES_MAX_BYTES");
  // Blocks up to 4 KiB by default (measured on the multi-host bed); forcing the path takes it at
  // any size.
  c = load_config(Env{}).config;
  CHECK(choose_route(Collective::alltoall, c, 4097, true).path == 0);
  CHECK(std::string(choose_route(Collective::alltoall, c, 4097, true).reason) ==
        "alltoall across nodes with blocks above MCORECOLL_ALLTOALL_NODES_MAX_BYTES");
  CHECK(choose_route(Collective::alltoall, load_config(Env{{"MCORECOLL_ALLTOALL", "shm"}}).config, 1 << 20, true).path == 1);
}

TEST_CASE("allgather across nodes: mcorecoll's path up to its own bound", "[route]") {
  const Config c = load_config(Env{{"MCORECOLL_ALLGATHER_MAX_BYTES", "64K"},
                                   {"MCORECOLL_ALLGATHER_NODES_MAX_BYTES", "2K"}}).config;
  CHECK(choose_route(Collective::allgather, c, 2048, true).path == 1);
  CHECK(choose_route(Collective::allgather, c, 4096, false).path == 1);
  const Route above = choose_route(Collective::allgather, c, 2049, true);
  CHECK(above.path == 0);
  CHECK(std::string(above.reason) == "allgather across nodes with blocks above MCORECOLL_ALLGATHER_NODES_MAX_BYTES");
  CHECK(choose_route(Collective::allgather, load_config(Env{{"MCORECOLL_ALLGATHER", "shm"}}).config, 1 << 20, true).path == 1);
}

TEST_CASE("alltoall by block size inside a node: staging, then single copy, then PMPI", "[route]") {
  const Config c = load_config(Env{{"MCORECOLL_ALLTOALL_MAX_BYTES", "1M"},
                                   {"MCORECOLL_ALLTOALL_CMA_MIN_BYTES", "64K"},
                                   {"MCORECOLL_ALLTOALL_NODES_MAX_BYTES", "1M"}}).config;
  CHECK(choose_route(Collective::alltoall, c, 65535).path == kAlltoallShm);
  CHECK(choose_route(Collective::alltoall, c, 65536).path == kAlltoallCma);
  CHECK(choose_route(Collective::alltoall, c, 1 << 20).path == kAlltoallCma);
  CHECK(choose_route(Collective::alltoall, c, (1 << 20) + 1).path == 0);
  // Across nodes the leaders exchange staged tiles: no single copy.
  CHECK(choose_route(Collective::alltoall, c, 65536, true).path == kAlltoallShm);
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
