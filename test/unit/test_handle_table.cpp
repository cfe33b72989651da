// The engine's handle table (handle_table.hpp) against std::map, through random inserts and
// erases that grow the table, collide and wrap around its end.
#include "catch.hpp"

#include <cstdint>
#include <map>
#include <random>

#include "progress/handle_table.hpp"

using mcorecoll::HandleTable;

TEST_CASE("the handle table finds what std::map finds, through inserts and erases", "[handle-table]") {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    std::mt19937 rng(seed);
    const std::uint64_t kEmpty = 0;
    HandleTable<std::uint64_t, int> table(kEmpty);
    std::map<std::uint64_t, int*> oracle;
    static int values[4096];
    // Few distinct keys, many operations: slots are reused, runs of collisions shift.
    const std::uint64_t range = 8 + rng() % 600;
    for (int step = 0; step < 20000; ++step) {
      const std::uint64_t key = 1 + rng() % range;
      if (oracle.count(key) == 0 && rng() % 2) {
        int* v = &values[key % 4096];
        table.insert(key, v);
        oracle[key] = v;
      } else if (oracle.count(key)) {
        CHECK(table.erase(key));
        oracle.erase(key);
      } else {
        CHECK_FALSE(table.erase(key));
      }
      if (step % 97 == 0) {
        INFO("seed " << seed << ", step " << step);
        REQUIRE(table.size() == oracle.size());
        for (std::uint64_t k = 1; k <= range; ++k) {
          const auto it = oracle.find(k);
          CHECK(table.find(k) == (it == oracle.end() ? nullptr : it->second));
        }
      }
    }
    CHECK(table.find(kEmpty) == nullptr);
  }
}
