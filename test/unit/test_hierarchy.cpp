#include "catch.hpp"

#include "topology/hierarchy.hpp"
#include "topology/placement.hpp"

using namespace mcorecoll;

namespace {

// Places of ranks bound to the given PUs of a synthetic topology.
std::vector<Place> places_on(const std::string& synthetic, const std::vector<int>& pus) {
  Topology topo(synthetic);
  std::vector<Place> places;
  for (int pu : pus) places.push_back(topo.place_of_pus({pu}));
  return places;
}

}  // namespace

TEST_CASE("a core binding resolves package, NUMA domain and last-level cache", "[topology]") {
  Topology topo("pack:2 numa:2 l3:1 core:2 pu:1");  // 8 cores, 4 NUMA domains, 4 L3
  CHECK(topo.pu_count() == 8);
  const Place p = topo.place_of_pus({5});
  CHECK(p.package == 1);
  CHECK(p.numa == 2);
  CHECK(p.numa_os == 2);
  CHECK(p.cache == 2);
}

TEST_CASE("a binding that spans domains is unplaced at those levels", "[topology]") {
  Topology topo("pack:2 core:2 pu:1");
  const Place within = topo.place_of_pus({0, 1});
  CHECK(within.package == 0);
  const Place across = topo.place_of_pus({1, 2});
  CHECK(across.package == -1);
  CHECK(topo.place_of_pus({}).package == -1);
}

TEST_CASE("an invalid synthetic description throws, naming the setting", "[topology]") {
  CHECK_THROWS_WITH(Topology("pack:two"), CATCH_CONTAINS("MCORECOLL_TEST_TOPOLOGY"));
}

TEST_CASE("two packages of two cores give one package level", "[hierarchy]") {
  const auto h = build_hierarchy(places_on("pack:2 core:2 pu:1", {0, 1, 2, 3}));
  REQUIRE(h.names == std::vector<std::string>{"package"});
  CHECK(h.leader[0] == std::vector<int>{0, 0, 2, 2});
  CHECK(describe(h) == "package: {0,1} {2,3}\n");
}

TEST_CASE("ranks placed out of order group by place, led by their lowest rank", "[hierarchy]") {
  // Ranks 0,2 on package 0 and ranks 1,3 on package 1.
  const auto h = build_hierarchy(places_on("pack:2 core:2 pu:1", {0, 2, 1, 3}));
  REQUIRE(h.leader.size() == 1);
  CHECK(h.leader[0] == std::vector<int>{0, 1, 0, 1});
}

TEST_CASE("levels that do not split the ranks collapse", "[hierarchy]") {
  // One NUMA domain and one L3 per package: only the package level remains.
  auto h = build_hierarchy(places_on("pack:2 l3:1 core:2 pu:1", {0, 1, 2, 3}));
  CHECK(h.names == std::vector<std::string>{"package"});
  // Everyone on one package: no level at all.
  h = build_hierarchy(places_on("pack:2 core:4 pu:1", {0, 1, 2, 3}));
  CHECK(h.leader.empty());
  CHECK(describe(h) == "flat\n");
}

TEST_CASE("a level where every rank is alone adds nothing", "[hierarchy]") {
  // One rank per package: packages would hold single ranks.
  const auto h = build_hierarchy(places_on("pack:4 core:2 pu:1", {0, 2, 4, 6}));
  CHECK(h.leader.empty());
}

TEST_CASE("package and NUMA levels nest", "[hierarchy]") {
  const auto h =
      build_hierarchy(places_on("pack:2 numa:2 core:2 pu:1", {0, 1, 2, 3, 4, 5, 6, 7}));
  REQUIRE(h.names == std::vector<std::string>{"package", "numa"});
  CHECK(h.leader[0] == std::vector<int>{0, 0, 0, 0, 4, 4, 4, 4});
  CHECK(h.leader[1] == std::vector<int>{0, 0, 2, 2, 4, 4, 6, 6});
}

TEST_CASE("one unbound rank makes the node flat (agreed by all)", "[hierarchy]") {
  auto places = places_on("pack:2 core:2 pu:1", {0, 1, 2, 3});
  places[3] = Place{};  // unbound
  CHECK(build_hierarchy(places).leader.empty());
}

TEST_CASE("flat fan-in: every rank reports to the node root", "[tree]") {
  const auto h = build_hierarchy(places_on("pack:2 core:4 pu:1", {0, 1, 2, 3}));
  CHECK(build_tree(h, 4, 0) == std::vector<int>{-1, 0, 0, 0});
}

TEST_CASE("hierarchical tree: members to their package leader, leaders to the root", "[tree]") {
  const auto h = build_hierarchy(places_on("pack:2 core:2 pu:1", {0, 1, 2, 3}));
  CHECK(build_tree(h, 4, 0) == std::vector<int>{-1, 0, 0, 2});
  const auto nested =
      build_hierarchy(places_on("pack:2 numa:2 core:2 pu:1", {0, 1, 2, 3, 4, 5, 6, 7}));
  CHECK(build_tree(nested, 8, 0) == std::vector<int>{-1, 0, 0, 2, 0, 4, 4, 6});
}

TEST_CASE("k-ary fan-in inside a group", "[tree]") {
  const NodeHierarchy flat;
  CHECK(build_tree(flat, 7, 2) == std::vector<int>{-1, 0, 0, 1, 1, 2, 2});
  CHECK(build_tree(flat, 5, 3) == std::vector<int>{-1, 0, 0, 0, 1});
}

TEST_CASE("every tree is rooted at node rank 0 and has no cycles", "[tree]") {
  const auto h = build_hierarchy(places_on("pack:2 numa:2 core:3 pu:1",
                                           {0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11}));
  for (int radix : {0, 2, 3}) {
    const auto parent = build_tree(h, 12, radix);
    for (int r = 0; r < 12; ++r) {
      int at = r, steps = 0;
      while (at != 0 && steps < 12) at = parent[static_cast<std::size_t>(at)], ++steps;
      INFO("rank " << r << " radix " << radix);
      CHECK(at == 0);
    }
  }
}
