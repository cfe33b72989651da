#include "decisions/stats.hpp"

#include <atomic>
#include <vector>

#include "common/log.hpp"

namespace mcorecoll {
namespace {

struct Counter {
  std::atomic<std::uint64_t> calls{0};
  std::atomic<std::uint64_t> bytes{0};
};
Counter counters[kCallKinds][kCollectiveCount][kMaxPaths];  // [kind][collective][path]

std::string path_name(Collective c, int path) {
  return path == kPmpiPath ? "pmpi" : algorithm_names(c).at(static_cast<std::size_t>(path - 1));
}

}  // namespace

static std::string form_name(int kind, Collective c) {
  const std::string name = collective_name(c);
  return kind == 1 ? "i" + name : kind == 2 ? name + "_init" : name;
}

void count_call(Collective c, int path, std::uint64_t bytes, CallKind kind) {
  Counter& counter = counters[static_cast<int>(kind)][static_cast<int>(c)][path];
  counter.calls.fetch_add(1, std::memory_order_relaxed);
  counter.bytes.fetch_add(bytes, std::memory_order_relaxed);
}

void report_stats(MPI_Comm world) {
  std::vector<std::uint64_t> local, total(kCallKinds * kCollectiveCount * kMaxPaths * 2);
  for (int nb = 0; nb < kCallKinds; ++nb)
    for (int c = 0; c < kCollectiveCount; ++c)
      for (int p = 0; p < kMaxPaths; ++p) {
        local.push_back(counters[nb][c][p].calls.load());
        local.push_back(counters[nb][c][p].bytes.load());
      }
  PMPI_Reduce(local.data(), total.data(), static_cast<int>(local.size()), MPI_UINT64_T, MPI_SUM,
              0, world);
  int rank = 0;
  PMPI_Comm_rank(world, &rank);
  if (rank != 0) return;
  for (int nb = 0; nb < kCallKinds; ++nb)
    for (Collective c : kAllCollectives) {
      const int paths = 1 + static_cast<int>(algorithm_names(c).size());
      for (int p = 0; p < paths; ++p) {
        const std::size_t at = ((static_cast<std::size_t>(nb) * kCollectiveCount + static_cast<std::size_t>(c)) * kMaxPaths + p) * 2;
        if (total[at] == 0) continue;
        say("stats " + form_name(nb, c) + " " + path_name(c, p) +
            " calls=" + std::to_string(total[at]) + " bytes=" + std::to_string(total[at + 1]));
      }
    }
}

}  // namespace mcorecoll
