#include "catch.hpp"

#include "topology/node_key.hpp"
#include "topology/node_map.hpp"

using namespace mcorecoll;

namespace {

NodeKey key(std::uint64_t boot, std::uint64_t pid_ns = 1, std::uint64_t pretend = 0) {
  NodeKey k;
  k.boot_hi = boot;
  k.boot_lo = ~boot;
  k.pid_namespace = pid_ns;
  k.pretend = pretend;
  return k;
}

}  // namespace

TEST_CASE("ranks are grouped by node key, nodes numbered by their first rank", "[node_map]") {
  // Ranks 0..5 on machines B, A, B, C, A, B: reordered communicators interleave nodes.
  const NodeMap map = group_by_node({key(20), key(10), key(20), key(30), key(10), key(20)});
  CHECK(map.node_count() == 3);
  CHECK(map.node == std::vector<int>{0, 1, 0, 2, 1, 0});
  CHECK(map.node_rank == std::vector<int>{0, 0, 1, 0, 1, 2});
  CHECK(map.members == std::vector<std::vector<int>>{{0, 2, 5}, {1, 4}, {3}});
}

TEST_CASE("a PID namespace or a pretend node of its own is a node of its own", "[node_map]") {
  const NodeMap map = group_by_node({key(7, 1, 0), key(7, 2, 0), key(7, 1, 1), key(7, 1, 0)});
  CHECK(map.node == std::vector<int>{0, 1, 2, 0});
  CHECK(map.node_rank == std::vector<int>{0, 0, 0, 1});
}

TEST_CASE("one node: node ranks are communicator ranks", "[node_map]") {
  const NodeMap map = group_by_node(std::vector<NodeKey>(5, key(3)));
  CHECK(map.node_count() == 1);
  CHECK(map.node_rank == std::vector<int>{0, 1, 2, 3, 4});
}

TEST_CASE("this process's key is stable and carries the pretend node", "[node_key]") {
  const NodeKey a = this_process_node_key(0), b = this_process_node_key(0);
  CHECK(a == b);
  CHECK(a.pid_namespace != 0);
  CHECK((a.boot_hi | a.boot_lo) != 0);
  CHECK(this_process_node_key(2) != a);
}
