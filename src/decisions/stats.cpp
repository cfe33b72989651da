#include "decisions/stats.hpp"

#include <atomic>
#include <cstdio>
#include <vector>

#include "common/log.hpp"

namespace mcorecoll {
namespace {

struct Counter {
  std::atomic<std::uint64_t> calls{0};
  std::atomic<std::uint64_t> bytes{0};
  std::atomic<std::uint64_t> ns{0};
};
Counter counters[kCallKinds][kCollectiveCount][kMaxPaths];  // [kind][collective][path]
Counter forwarded[kCallKinds][kMaxForwarded];                // [kind][forwarded collective]
const char* const* g_forwarded_names = nullptr;
int g_forwarded_count = 0;
thread_local Counter* t_last = nullptr;  // the counter of this thread's call in progress

std::string path_name(Collective c, int path) {
  return path == kPmpiPath ? "pmpi" : algorithm_names(c).at(static_cast<std::size_t>(path - 1));
}

}  // namespace

// Microseconds with three decimals ("12.345").
static std::string microseconds(double us) {
  char text[64];
  std::snprintf(text, sizeof text, "%.3f", us);
  return text;
}

static std::string form_name(int kind, Collective c) {
  const std::string name = collective_name(c);
  return kind == 1 ? "i" + name : kind == 2 ? name + "_init" : name;
}

void count_call(Collective c, int path, std::uint64_t bytes, CallKind kind) {
  Counter& counter = counters[static_cast<int>(kind)][static_cast<int>(c)][path];
  counter.calls.fetch_add(1, std::memory_order_relaxed);
  counter.bytes.fetch_add(bytes, std::memory_order_relaxed);
  t_last = &counter;
}

void name_forwarded(const char* const* names, int count) {
  g_forwarded_names = names;
  g_forwarded_count = count < kMaxForwarded ? count : kMaxForwarded;
}

void count_forwarded(int which, CallKind kind) {
  if (which < 0 || which >= kMaxForwarded) return;
  Counter& counter = forwarded[static_cast<int>(kind)][which];
  counter.calls.fetch_add(1, std::memory_order_relaxed);
  t_last = &counter;
}

void forget_call_counter() { t_last = nullptr; }

void add_call_time(std::uint64_t ns) {
  if (!t_last) return;
  t_last->ns.fetch_add(ns, std::memory_order_relaxed);
  t_last = nullptr;
}

void report_stats(MPI_Comm world) {
  constexpr std::size_t kFields = 3;  // calls, bytes, ns
  const std::size_t main_slots = static_cast<std::size_t>(kCallKinds) * kCollectiveCount * kMaxPaths;
  const std::size_t slots = main_slots + static_cast<std::size_t>(kCallKinds) * kMaxForwarded;
  std::vector<std::uint64_t> local, total(slots * kFields);
  std::vector<std::int64_t> own_ns;
  for (int nb = 0; nb < kCallKinds; ++nb)
    for (int c = 0; c < kCollectiveCount; ++c)
      for (int p = 0; p < kMaxPaths; ++p) {
        local.push_back(counters[nb][c][p].calls.load());
        local.push_back(counters[nb][c][p].bytes.load());
        const std::uint64_t ns = counters[nb][c][p].ns.load();
        local.push_back(ns);
        own_ns.push_back(static_cast<std::int64_t>(ns));
      }
  for (int nb = 0; nb < kCallKinds; ++nb)
    for (int f = 0; f < kMaxForwarded; ++f) {
      local.push_back(forwarded[nb][f].calls.load());
      local.push_back(0);
      const std::uint64_t ns = forwarded[nb][f].ns.load();
      local.push_back(ns);
      own_ns.push_back(static_cast<std::int64_t>(ns));
    }
  PMPI_Reduce(local.data(), total.data(), static_cast<int>(local.size()), MPI_UINT64_T, MPI_SUM,
              0, world);
  // Signed: MPICH 4.0's MPI_MAX compares MPI_UINT64_T as signed (doc/mpi-defects.md).
  std::vector<std::int64_t> most_ns(slots);
  PMPI_Reduce(own_ns.data(), most_ns.data(), static_cast<int>(slots), MPI_INT64_T, MPI_MAX, 0, world);
  int rank = 0;
  PMPI_Comm_rank(world, &rank);
  if (rank != 0) return;
  for (int nb = 0; nb < kCallKinds; ++nb)
    for (Collective c : kAllCollectives) {
      const int paths = 1 + static_cast<int>(algorithm_names(c).size());
      for (int p = 0; p < paths; ++p) {
        const std::size_t slot = (static_cast<std::size_t>(nb) * kCollectiveCount + static_cast<std::size_t>(c)) * kMaxPaths + p;
        const std::size_t at = slot * kFields;
        if (total[at] == 0) continue;
        const double time_us = static_cast<double>(total[at + 2]) / 1e3;
        say("stats " + form_name(nb, c) + " " + path_name(c, p) + " calls=" + std::to_string(total[at]) +
            " bytes=" + std::to_string(total[at + 1]) + " time_us=" + microseconds(time_us) +
            " mean_us=" + microseconds(time_us / static_cast<double>(total[at])) +
            " max_rank_us=" + microseconds(static_cast<double>(most_ns[slot]) / 1e3));
      }
    }
  for (int nb = 0; nb < kCallKinds; ++nb)
    for (int f = 0; f < g_forwarded_count; ++f) {
      const std::size_t slot = main_slots + static_cast<std::size_t>(nb) * kMaxForwarded + static_cast<std::size_t>(f);
      const std::size_t at = slot * kFields;
      if (total[at] == 0) continue;
      const std::string name = g_forwarded_names[f];
      const double time_us = static_cast<double>(total[at + 2]) / 1e3;
      say("stats " + (nb == 1 ? "i" + name : nb == 2 ? name + "_init" : name) + " pmpi calls=" +
          std::to_string(total[at]) + " bytes=0 time_us=" + microseconds(time_us) +
          " mean_us=" + microseconds(time_us / static_cast<double>(total[at])) +
          " max_rank_us=" + microseconds(static_cast<double>(most_ns[slot]) / 1e3));
    }
}

}  // namespace mcorecoll
