#include "catch.hpp"

#include <map>
#include <set>

#include "node/reader_schedule.hpp"

using namespace mcorecoll;

namespace {

// Readers (node ranks other than the source) per group number.
std::map<int, std::vector<int>> members(const ReaderGroups& g, int source) {
  std::map<int, std::vector<int>> out;
  for (int r = 0; r < static_cast<int>(g.group.size()); ++r) {
    if (r == source) {
      CHECK(g.group[static_cast<std::size_t>(r)] == -1);
      continue;
    }
    out[g.group[static_cast<std::size_t>(r)]].push_back(r);
  }
  return out;
}

}  // namespace

TEST_CASE("readers form groups of at most k, every rank but the source in one", "[schedule]") {
  for (int size : {1, 2, 3, 5, 8, 17}) {
    for (int source = 0; source < size; ++source) {
      for (int cap : {1, 2, 4, 16}) {
        const ReaderGroups g = reader_groups(size, source, cap, {});
        const auto groups = members(g, source);
        CHECK(static_cast<int>(groups.size()) == g.count);
        CHECK(g.count == (size - 1 + cap - 1) / cap);
        int readers = 0;
        for (const auto& [number, ranks] : groups) {
          CHECK(number >= 0);
          CHECK(number < g.count);
          CHECK(static_cast<int>(ranks.size()) <= cap);
          readers += static_cast<int>(ranks.size());
        }
        CHECK(readers == size - 1);
      }
      // No cap: one group of all readers.
      const ReaderGroups all = reader_groups(size, source, 0, {});
      CHECK(all.count == (size > 1 ? 1 : 0));
    }
  }
}

TEST_CASE("readers grouped by the hierarchy follow its groups", "[schedule]") {
  // Two sockets of three ranks: leaders 0 and 3.
  const std::vector<int> leader = {0, 0, 0, 3, 3, 3};
  const ReaderGroups from_first = reader_groups(6, 0, kReadersByHierarchyGroup, leader);
  CHECK(from_first.count == 2);
  CHECK(from_first.group == std::vector<int>{-1, 0, 0, 1, 1, 1});
  const ReaderGroups from_second = reader_groups(6, 4, kReadersByHierarchyGroup, leader);
  CHECK(from_second.group == std::vector<int>{0, 0, 0, 1, -1, 1});
  // A socket whose only rank is the source has no readers, and no group.
  const ReaderGroups alone = reader_groups(3, 2, kReadersByHierarchyGroup, {0, 0, 2});
  CHECK(alone.count == 1);
  CHECK(alone.group == std::vector<int>{0, 0, -1});
  // A flat node: one group.
  CHECK(reader_groups(4, 1, kReadersByHierarchyGroup, {}).count == 1);
}

TEST_CASE("in the rotating schedule every group reads every part once, and groups that keep "
          "pace never share a part", "[schedule]") {
  for (std::uint64_t parts : {1, 2, 3, 4, 7}) {
    for (int groups = 1; groups <= 9; ++groups) {
      std::vector<std::set<std::uint64_t>> read(static_cast<std::size_t>(groups));
      for (std::uint64_t step = 0; step < parts; ++step) {
        std::map<std::uint64_t, int> readers_of_part;
        for (int g = 0; g < groups; ++g) {
          const std::uint64_t p = rotating_part(g, step, parts);
          REQUIRE(p < parts);
          read[static_cast<std::size_t>(g)].insert(p);
          ++readers_of_part[p];
        }
        // As many groups on one part as there must be: ceil(groups / parts).
        for (const auto& [part, count] : readers_of_part)
          CHECK(static_cast<std::uint64_t>(count) <= (static_cast<std::uint64_t>(groups) + parts - 1) / parts);
      }
      for (const auto& parts_read : read) CHECK(parts_read.size() == parts);
    }
  }
}
