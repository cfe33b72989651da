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
  CHECK(choose_route(Collective::alltoall, c, 65535).path == kAlltoallStaged);
  CHECK(choose_route(Collective::alltoall, c, 65536).path == kAlltoallCma);
  CHECK(choose_route(Collective::alltoall, c, 1 << 20).path == kAlltoallCma);
  CHECK(choose_route(Collective::alltoall, c, (1 << 20) + 1).path == 0);
  // Across nodes the leaders exchange staged tiles: no single copy.
  CHECK(choose_route(Collective::alltoall, c, 65536, true).path == kAlltoallStaged);
}

TEST_CASE("bcast by size: ring up to the single-copy bound, then single copy, then PMPI", "[route]") {
  const Config c = load_config(Env{{"MCORECOLL_BCAST_MAX_BYTES", "1M"},
                                   {"MCORECOLL_BCAST_CMA_MIN_BYTES", "64K"}}).config;
  CHECK(choose_route(Collective::bcast, c, 0).path == kBcastRing);
  CHECK(choose_route(Collective::bcast, c, 65535).path == kBcastRing);
  CHECK(choose_route(Collective::bcast, c, 65536).path == kBcastCma);
  CHECK(choose_route(Collective::bcast, c, 1 << 20).path == kBcastCma);
  const Route above = choose_route(Collective::bcast, c, (1 << 20) + 1);
  CHECK(above.path == 0);
  CHECK(std::string(above.reason) == "bcast message above MCORECOLL_BCAST_MAX_BYTES");
}

TEST_CASE("a forced bcast algorithm ignores the size bounds", "[route]") {
  const Config c = load_config(Env{{"MCORECOLL_BCAST", "shm"}, {"MCORECOLL_BCAST_MAX_BYTES", "1K"}}).config;
  CHECK(choose_route(Collective::bcast, c, 1 << 30).path == kBcastRing);
}

TEST_CASE("the reductions' node algorithms are named in settings and rows", "[route]") {
  for (const char* name : {"lines", "tree", "fold", "slices"}) {
    const Config c = load_config(Env{{"MCORECOLL_ALLREDUCE", name}, {"MCORECOLL_REDUCE", name}}).config;
    const int forced = c.forced_path[static_cast<int>(Collective::allreduce)];
    CHECK(node_reduction(forced));
    CHECK(algorithm_names(Collective::allreduce)[static_cast<std::size_t>(forced - 1)] == name);
    CHECK(choose_route(Collective::allreduce, c, 1 << 20).path == forced);
    CHECK(choose_route(Collective::reduce, c, 8).path == forced);
  }
  CHECK(algorithm_names(Collective::allreduce)[kReductionLines - 1] == "lines");
  CHECK(algorithm_names(Collective::reduce)[kReductionTree - 1] == "tree");
  CHECK(algorithm_names(Collective::allreduce)[kReductionFold - 1] == "fold");
  CHECK(algorithm_names(Collective::reduce)[kReductionSlices - 1] == "slices");
  CHECK_FALSE(node_reduction(kReductionShm));
  CHECK_FALSE(node_reduction(kReductionLanes));
  // Other collectives have no such names.
  CHECK(load_config(Env{{"MCORECOLL_ALLGATHER", "slices"}}).errors.size() > 0);
}

TEST_CASE("the node's choice of reduction: a line, then fold, then slices; the tree past the flat fold", "[route]") {
  Config c = load_config({}).config;
  c.reduce_flat_max = 16;
  // A line holds kReduceLineBytes: flat up to 16 ranks, the tree beyond.
  CHECK(node_reduction_choice(8, 2, c) == kReductionLines);
  CHECK(node_reduction_choice(kReduceLineBytes, 16, c) == kReductionLines);
  CHECK(node_reduction_choice(kReduceLineBytes, 17, c) == kReductionTree);
  // Past a line: fold until every rank's slice reaches kSliceMinBytes (kLineBytes past the flat fold).
  CHECK(node_reduction_choice(kReduceLineBytes + 1, 2, c) == kReductionFold);
  CHECK(node_reduction_choice(2 * kSliceMinBytes - 1, 2, c) == kReductionFold);
  CHECK(node_reduction_choice(2 * kSliceMinBytes, 2, c) == kReductionSlices);
  CHECK(node_reduction_choice(16 * kSliceMinBytes - 1, 16, c) == kReductionFold);
  CHECK(node_reduction_choice(64 * kLineBytes - 1, 64, c) == kReductionFold);
  CHECK(node_reduction_choice(64 * kLineBytes, 64, c) == kReductionSlices);
  c.reduce_flat_max = 0;  // every node folds small contributions over the tree
  CHECK(node_reduction_choice(8, 2, c) == kReductionTree);
}

TEST_CASE("a named node algorithm is taken as named, but lines and tree only where a line holds it", "[route]") {
  Config c = load_config({}).config;
  c.reduce_flat_max = 16;
  for (int named : {kReductionLines, kReductionTree, kReductionFold, kReductionSlices}) {
    CHECK(node_reduction_taken(named, 8, 2, c) == named);
    CHECK(node_reduction_taken(named, kReduceLineBytes, 32, c) == named);
  }
  CHECK(node_reduction_taken(kReductionLines, kReduceLineBytes + 1, 2, c) == kReductionFold);
  CHECK(node_reduction_taken(kReductionTree, 1 << 20, 2, c) == kReductionSlices);
  CHECK(node_reduction_taken(kReductionFold, 1 << 20, 2, c) == kReductionFold);
  CHECK(node_reduction_taken(kReductionSlices, 8, 2, c) == kReductionSlices);
  // shm: the node's choice.
  CHECK(node_reduction_taken(kReductionShm, 8, 2, c) == kReductionLines);
  CHECK(node_reduction_taken(kReductionShm, 8, 17, c) == kReductionTree);
  CHECK(node_reduction_taken(kReductionShm, 1 << 20, 2, c) == kReductionSlices);
}

TEST_CASE("each node algorithm's sibling is the other of its kind", "[route]") {
  CHECK(node_reduction_sibling(kReductionLines) == kReductionTree);
  CHECK(node_reduction_sibling(kReductionTree) == kReductionLines);
  CHECK(node_reduction_sibling(kReductionFold) == kReductionSlices);
  CHECK(node_reduction_sibling(kReductionSlices) == kReductionFold);
}
