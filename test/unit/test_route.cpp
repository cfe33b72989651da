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

TEST_CASE("the node algorithms are named in settings and rows", "[route]") {
  struct Named {
    Collective c;
    std::vector<const char*> names;
  };
  for (const Named& n : {Named{Collective::allreduce, {"lines", "tree", "fold", "slices"}},
                         Named{Collective::reduce, {"lines", "tree", "fold", "slices"}},
                         Named{Collective::allgather, {"lines", "groups", "staged"}},
                         Named{Collective::barrier, {"poll", "tree"}}, Named{Collective::scan, {"lines", "staged"}},
                         Named{Collective::exscan, {"lines", "staged"}}}) {
    CHECK(has_node_algorithms(n.c));
    for (const char* name : n.names) {
      INFO(collective_name(n.c) << " " << name);
      const Config c = load_config(Env{{"MCORECOLL_" + setting_name(n.c), name}}).config;
      const int forced = c.forced_path[static_cast<int>(n.c)];
      CHECK(node_algorithm(n.c, forced));
      CHECK(path_name(n.c, forced) == name);
      CHECK(choose_route(n.c, c, 1 << 20).path == forced);
      CHECK(choose_route(n.c, c, 8).path == forced);
    }
    CHECK_FALSE(node_algorithm(n.c, kNodeChoice));
    CHECK_FALSE(node_algorithm(n.c, kPmpiPath));
  }
  CHECK(path_name(Collective::allreduce, kReductionLines) == "lines");
  CHECK(path_name(Collective::reduce, kReductionTree) == "tree");
  CHECK(path_name(Collective::allreduce, kReductionFold) == "fold");
  CHECK(path_name(Collective::reduce, kReductionSlices) == "slices");
  CHECK(path_name(Collective::allgather, kAllgatherLines) == "lines");
  CHECK(path_name(Collective::allgather, kAllgatherGroups) == "groups");
  CHECK(path_name(Collective::allgather, kAllgatherStaged) == "staged");
  CHECK(path_name(Collective::barrier, kBarrierPoll) == "poll");
  CHECK(path_name(Collective::barrier, kBarrierTree) == "tree");
  CHECK(path_name(Collective::scan, kScanLines) == "lines");
  CHECK(path_name(Collective::exscan, kScanStaged) == "staged");
  CHECK_FALSE(node_algorithm(Collective::allreduce, kReductionLanes));
  CHECK_FALSE(node_algorithm(Collective::allgather, kAllgatherLanes));
  CHECK_FALSE(has_node_algorithms(Collective::bcast));
  CHECK_FALSE(has_node_algorithms(Collective::gather));
  // Other collectives have no such names.
  CHECK(load_config(Env{{"MCORECOLL_ALLGATHER", "slices"}}).errors.size() > 0);
  CHECK(load_config(Env{{"MCORECOLL_BCAST", "tree"}}).errors.size() > 0);
  CHECK(load_config(Env{{"MCORECOLL_GATHER", "lines"}}).errors.size() > 0);
}

TEST_CASE("the node's choice of reduction: a line, then fold, then slices; the tree past the flat fold", "[route]") {
  Config c = load_config({}).config;
  c.reduce_flat_max = 16;
  for (Collective r : {Collective::allreduce, Collective::reduce}) {
    // A line holds kReduceLineBytes: flat up to 16 ranks, the tree beyond.
    CHECK(node_choice(r, 8, 2, c) == kReductionLines);
    CHECK(node_choice(r, kReduceLineBytes, 16, c) == kReductionLines);
    CHECK(node_choice(r, kReduceLineBytes, 17, c) == kReductionTree);
    // Past a line: fold until every rank's slice reaches kSliceMinBytes (kLineBytes past the flat fold).
    CHECK(node_choice(r, kReduceLineBytes + 1, 2, c) == kReductionFold);
    CHECK(node_choice(r, 2 * kSliceMinBytes - 1, 2, c) == kReductionFold);
    CHECK(node_choice(r, 2 * kSliceMinBytes, 2, c) == kReductionSlices);
    CHECK(node_choice(r, 16 * kSliceMinBytes - 1, 16, c) == kReductionFold);
    CHECK(node_choice(r, 64 * kLineBytes - 1, 64, c) == kReductionFold);
    CHECK(node_choice(r, 64 * kLineBytes, 64, c) == kReductionSlices);
  }
  c.reduce_flat_max = 0;  // every node folds small contributions over the tree
  CHECK(node_choice(Collective::allreduce, 8, 2, c) == kReductionTree);
}

TEST_CASE("the node's choice of allgather, barrier and scan", "[route]") {
  Config c = load_config({}).config;
  c.allgather_flat_max = 16;
  c.barrier_all_poll_max = 8;
  // Allgather: lines for a block of a line, groups past the flat bound where a group forms
  // (four ranks or more, half a line), else staged.
  CHECK(node_choice(Collective::allgather, 8, 2, c) == kAllgatherLines);
  CHECK(node_choice(Collective::allgather, kReduceLineBytes, 16, c) == kAllgatherLines);
  CHECK(node_choice(Collective::allgather, kReduceLineBytes / 2, 17, c) == kAllgatherGroups);
  CHECK(node_choice(Collective::allgather, kReduceLineBytes / 2 + 1, 17, c) == kAllgatherLines);
  CHECK(node_choice(Collective::allgather, kReduceLineBytes + 1, 2, c) == kAllgatherStaged);
  CHECK(node_choice(Collective::allgather, 1 << 20, 64, c) == kAllgatherStaged);
  c.allgather_flat_max = 2;
  CHECK(node_choice(Collective::allgather, 8, 3, c) == kAllgatherLines);  // three ranks form no group
  CHECK(node_choice(Collective::allgather, 8, 4, c) == kAllgatherGroups);
  // Barrier: poll up to MCORECOLL_BARRIER_ALL_POLL_MAX ranks, the tree beyond.
  CHECK(node_choice(Collective::barrier, 0, 2, c) == kBarrierPoll);
  CHECK(node_choice(Collective::barrier, 0, 8, c) == kBarrierPoll);
  CHECK(node_choice(Collective::barrier, 0, 9, c) == kBarrierTree);
  // The scans: a line where the image fits one, else staged.
  for (Collective s : {Collective::scan, Collective::exscan}) {
    CHECK(node_choice(s, kReduceLineBytes, 64, c) == kScanLines);
    CHECK(node_choice(s, kReduceLineBytes + 1, 2, c) == kScanStaged);
  }
}

TEST_CASE("a named node algorithm is taken as named where it accepts the call, else the node's choice", "[route]") {
  Config c = load_config({}).config;
  c.reduce_flat_max = 16;
  c.allgather_flat_max = 16;
  for (int named : {kReductionLines, kReductionTree, kReductionFold, kReductionSlices}) {
    CHECK(node_algorithm_taken(Collective::allreduce, named, 8, 2, c) == named);
    CHECK(node_algorithm_taken(Collective::reduce, named, kReduceLineBytes, 32, c) == named);
  }
  CHECK(node_algorithm_taken(Collective::allreduce, kReductionLines, kReduceLineBytes + 1, 2, c) == kReductionFold);
  CHECK(node_algorithm_taken(Collective::allreduce, kReductionTree, 1 << 20, 2, c) == kReductionSlices);
  CHECK(node_algorithm_taken(Collective::reduce, kReductionFold, 1 << 20, 2, c) == kReductionFold);
  CHECK(node_algorithm_taken(Collective::reduce, kReductionSlices, 8, 2, c) == kReductionSlices);
  // shm: the node's choice.
  CHECK(node_algorithm_taken(Collective::allreduce, kReductionShm, 8, 2, c) == kReductionLines);
  CHECK(node_algorithm_taken(Collective::allreduce, kReductionShm, 8, 17, c) == kReductionTree);
  CHECK(node_algorithm_taken(Collective::allreduce, kReductionShm, 1 << 20, 2, c) == kReductionSlices);
  // Allgather: groups need four ranks and half a line; lines a line; staged takes any block.
  CHECK(node_algorithm_taken(Collective::allgather, kAllgatherGroups, 8, 4, c) == kAllgatherGroups);
  CHECK(node_algorithm_taken(Collective::allgather, kAllgatherGroups, 8, 3, c) == kAllgatherLines);
  CHECK(node_algorithm_taken(Collective::allgather, kAllgatherGroups, kReduceLineBytes, 32, c) == kAllgatherLines);
  CHECK(node_algorithm_taken(Collective::allgather, kAllgatherLines, kReduceLineBytes + 1, 2, c) == kAllgatherStaged);
  CHECK(node_algorithm_taken(Collective::allgather, kAllgatherStaged, 8, 2, c) == kAllgatherStaged);
  CHECK(node_algorithm_taken(Collective::allgather, kAllgatherShm, 8, 2, c) == kAllgatherLines);
  // Barrier: either at any size of node.
  CHECK(node_algorithm_taken(Collective::barrier, kBarrierTree, 0, 2, c) == kBarrierTree);
  CHECK(node_algorithm_taken(Collective::barrier, kBarrierPoll, 0, 64, c) == kBarrierPoll);
  CHECK(node_algorithm_taken(Collective::barrier, kBarrierShm, 0, 2, c) == kBarrierPoll);
  // Scans: lines only where a line holds the image.
  CHECK(node_algorithm_taken(Collective::scan, kScanStaged, 8, 2, c) == kScanStaged);
  CHECK(node_algorithm_taken(Collective::exscan, kScanLines, kReduceLineBytes + 1, 2, c) == kScanStaged);
  CHECK(node_algorithm_taken(Collective::scan, kScanShm, 8, 2, c) == kScanLines);
}

TEST_CASE("each node algorithm's sibling is the other of its kind, where it accepts the call", "[route]") {
  CHECK(node_algorithm_sibling(Collective::allreduce, kReductionLines, 8, 2) == kReductionTree);
  CHECK(node_algorithm_sibling(Collective::reduce, kReductionTree, 8, 2) == kReductionLines);
  CHECK(node_algorithm_sibling(Collective::allreduce, kReductionFold, 1 << 20, 2) == kReductionSlices);
  CHECK(node_algorithm_sibling(Collective::reduce, kReductionSlices, 1 << 20, 2) == kReductionFold);
  CHECK(node_algorithm_sibling(Collective::allgather, kAllgatherLines, 8, 4) == kAllgatherGroups);
  CHECK(node_algorithm_sibling(Collective::allgather, kAllgatherLines, 8, 2) == -1);  // no group of two
  CHECK(node_algorithm_sibling(Collective::allgather, kAllgatherGroups, 8, 4) == kAllgatherLines);
  CHECK(node_algorithm_sibling(Collective::allgather, kAllgatherStaged, 1 << 20, 4) == -1);
  CHECK(node_algorithm_sibling(Collective::barrier, kBarrierPoll, 0, 2) == kBarrierTree);
  CHECK(node_algorithm_sibling(Collective::barrier, kBarrierTree, 0, 2) == kBarrierPoll);
  CHECK(node_algorithm_sibling(Collective::scan, kScanLines, 8, 2) == kScanStaged);
  CHECK(node_algorithm_sibling(Collective::exscan, kScanStaged, 8, 2) == kScanLines);
  CHECK(node_algorithm_sibling(Collective::scan, kScanStaged, kReduceLineBytes + 1, 2) == -1);
  CHECK(node_algorithm_sibling(Collective::bcast, kBcastRing, 8, 2) == -1);
}
