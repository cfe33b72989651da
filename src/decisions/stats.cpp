#include "decisions/stats.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <vector>

#include "common/log.hpp"
#include "decisions/learning.hpp"

namespace mcorecoll {
namespace {

struct Counter {
  std::atomic<std::uint64_t> calls{0};
  std::atomic<std::uint64_t> bytes{0};
  std::atomic<std::uint64_t> ns{0};
  std::atomic<std::uint64_t> classes{0};  // StatsLine::size_classes
};
Counter counters[kCallKinds][kCollectiveCount][kMaxPaths];  // [kind][collective][path]
Counter forwarded[kCallKinds][kMaxForwarded];                // [kind][forwarded collective]
const char* const* g_forwarded_names = nullptr;
int g_forwarded_count = 0;
thread_local Counter* t_last = nullptr;  // the counter of this thread's call in progress

// A counter's cell in the reduction at MPI_Finalize: calls, bytes and time summed, the time's
// most and least over the ranks, the size classes joined.
constexpr std::size_t kCellFields = 6;

// `len` cells (a datatype of kCellFields integers: the MPI library may cut the buffer, but not
// a cell).
void combine_cells(void* in, void* inout, int* len, MPI_Datatype*) {
  const std::uint64_t* a = static_cast<const std::uint64_t*>(in);
  std::uint64_t* b = static_cast<std::uint64_t*>(inout);
  const int fields = static_cast<int>(kCellFields);
  for (int i = 0; i < *len * fields; i += fields) {
    for (int f = 0; f < 3; ++f) b[i + f] += a[i + f];
    b[i + 3] = std::max(b[i + 3], a[i + 3]);
    b[i + 4] = std::min(b[i + 4], a[i + 4]);
    b[i + 5] |= a[i + 5];
  }
}

}  // namespace

// Microseconds with three decimals ("12.345").
static std::string microseconds(double us) {
  char text[64];
  std::snprintf(text, sizeof text, "%.3f", us);
  return text;
}

void count_call(Collective c, int path, std::uint64_t bytes, CallKind kind) {
  Counter& counter = counters[static_cast<int>(kind)][static_cast<int>(c)][path];
  counter.calls.fetch_add(1, std::memory_order_relaxed);
  counter.bytes.fetch_add(bytes, std::memory_order_relaxed);
  const int k = size_class(bytes);
  counter.classes.fetch_or(1ull << (k < 63 ? k : 63), std::memory_order_relaxed);
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

std::vector<StatsLine> collect_stats(MPI_Comm world) {
  // Every counter a slot, in one order on every rank: the collectives', then the forwarded.
  struct Slot {
    const Counter* counter;
    int kind;
    int collective;  // -1: forwarded
    int path;        // or the forwarded collective's index
  };
  std::vector<Slot> slots;
  for (int nb = 0; nb < kCallKinds; ++nb)
    for (int c = 0; c < kCollectiveCount; ++c)
      for (int p = 0; p < kMaxPaths; ++p) slots.push_back({&counters[nb][c][p], nb, c, p});
  for (int nb = 0; nb < kCallKinds; ++nb)
    for (int f = 0; f < kMaxForwarded; ++f) slots.push_back({&forwarded[nb][f], nb, -1, f});
  // One reduction of six fields a slot, combined field by field: a collective at MPI_Finalize
  // costs most where the ranks outnumber the cores (MPICH at np 16 on 2 cores: ~110 ms each).
  const std::size_t n = slots.size();
  std::vector<std::uint64_t> mine(kCellFields * n), all(kCellFields * n);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t* cell = &mine[kCellFields * i];
    cell[0] = slots[i].counter->calls.load();
    cell[1] = slots[i].counter->bytes.load();
    cell[2] = slots[i].counter->ns.load();
    cell[3] = cell[4] = cell[2];  // the most and the least one rank spent
    cell[5] = slots[i].counter->classes.load();
  }
  MPI_Datatype cell_type = MPI_DATATYPE_NULL;
  PMPI_Type_contiguous(static_cast<int>(kCellFields), MPI_UINT64_T, &cell_type);
  PMPI_Type_commit(&cell_type);
  MPI_Op op = MPI_OP_NULL;
  PMPI_Op_create(&combine_cells, 1, &op);
  PMPI_Reduce(mine.data(), all.data(), static_cast<int>(n), cell_type, op, 0, world);
  PMPI_Op_free(&op);
  PMPI_Type_free(&cell_type);
  int rank = 0;
  PMPI_Comm_rank(world, &rank);
  std::vector<StatsLine> lines;
  if (rank != 0) return lines;
  for (std::size_t i = 0; i < n; ++i) {
    const Slot& s = slots[i];
    if (all[kCellFields * i] == 0) continue;
    StatsLine line;
    line.kind = static_cast<CallKind>(s.kind);
    line.forwarded = s.collective < 0;
    if (line.forwarded) {
      if (s.path >= g_forwarded_count) continue;
      line.collective = g_forwarded_names[s.path];
      line.path = "pmpi";
    } else {
      const Collective c = static_cast<Collective>(s.collective);
      if (s.path > static_cast<int>(algorithm_names(c).size())) continue;
      line.collective = collective_name(c);
      line.path = path_name(c, s.path);
    }
    line.form = s.kind == 1 ? "i" + line.collective : s.kind == 2 ? line.collective + "_init" : line.collective;
    const std::uint64_t* cell = &all[kCellFields * i];
    line.calls = cell[0];
    line.bytes = line.forwarded ? 0 : cell[1];
    line.ns_sum = cell[2];
    line.ns_most_rank = cell[3];
    line.ns_least_rank = cell[4];
    line.size_classes = cell[5];
    lines.push_back(line);
  }
  return lines;
}

void print_stats(const std::vector<StatsLine>& lines, int ranks, std::uint64_t job_ns) {
  for (const StatsLine& l : lines) {
    const double time_us = static_cast<double>(l.ns_sum) / 1e3;
    say("stats " + l.form + " " + l.path + " calls=" + std::to_string(l.calls) + " bytes=" + std::to_string(l.bytes) +
        " time_us=" + microseconds(time_us) + " mean_us=" + microseconds(time_us / static_cast<double>(l.calls)) +
        " max_rank_us=" + microseconds(static_cast<double>(l.ns_most_rank) / 1e3));
  }
  // The table a person reads: one line a collective (its forms and paths together), the one
  // that took the ranks most time first.
  struct Row {
    std::string collective;
    std::uint64_t calls = 0, ns_sum = 0;
    std::string paths;
  };
  std::vector<Row> rows;
  for (const StatsLine& l : lines) {
    auto row = std::find_if(rows.begin(), rows.end(), [&](const Row& r) { return r.collective == l.collective; });
    if (row == rows.end()) row = rows.insert(rows.end(), Row{l.collective, 0, 0, {}});
    row->calls += l.calls;
    row->ns_sum += l.ns_sum;
    row->paths += (row->paths.empty() ? "" : ", ") + l.form + " " + l.path + " " + std::to_string(l.calls);
  }
  if (rows.empty()) return;
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.ns_sum > b.ns_sum; });
  const double per_rank = 1.0 / static_cast<double>(std::max(ranks, 1));
  char line[160];
  std::snprintf(line, sizeof line, "%-22s %10s %14s %8s  %s", "collective", "calls", "us_per_rank", "of_job",
                "form, path, calls");
  say(line);
  for (const Row& r : rows) {
    const double us = static_cast<double>(r.ns_sum) / 1e3 * per_rank;
    const double share = job_ns ? 100.0 * us * 1e3 / static_cast<double>(job_ns) : 0.0;
    std::snprintf(line, sizeof line, "%-22s %10llu %14.1f %7.2f%%  ", r.collective.c_str(),
                  static_cast<unsigned long long>(r.calls), us, share);
    say(line + r.paths);
  }
}

}  // namespace mcorecoll
