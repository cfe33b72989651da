#include "decisions/decision_table.hpp"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "decisions/config.hpp"

namespace mcorecoll {
namespace {

std::string path_name(Collective c, int path) {
  return path == 0 ? "pmpi" : algorithm_names(c)[static_cast<std::size_t>(path - 1)];
}

// 4096 -> "4K", 16777216 -> "16M"; other counts in bytes.
std::string short_bytes(std::uint64_t bytes) {
  const char* suffixes = "KMGT";
  int shift = 0;
  while (shift < 4 && bytes != 0 && bytes % 1024 == 0) bytes /= 1024, ++shift;
  return std::to_string(bytes) + (shift ? std::string(1, suffixes[shift - 1]) : "");
}

TableRow row(Collective c, int ranks, bool oversubscribed, const char* bands, const char* source) {
  TableRow r;
  r.ranks = ranks;
  r.oversubscribed = oversubscribed;
  r.source = source;
  std::string error;
  if (!parse_bands(c, bands, &r.bands, &error)) std::abort();  // a typo in the table below
  return r;
}

}  // namespace

bool parse_bands(Collective c, const std::string& text, std::vector<Band>* bands, std::string* error) {
  bands->clear();
  std::istringstream in(text);
  std::string item;
  bool closed = false;
  while (in >> item) {
    if (closed) return *error = "nothing may follow the closing 'pmpi'", false;
    const auto colon = item.find(':');
    const std::string name = item.substr(0, colon);
    int path = -1;
    if (name == "pmpi") path = 0;
    for (std::size_t k = 0; k < algorithm_names(c).size(); ++k)
      if (algorithm_names(c)[k] == name) path = static_cast<int>(k) + 1;
    if (path < 0) return *error = "unknown path '" + name + "'", false;
    if (colon == std::string::npos) {
      if (path != 0) return *error = "'" + name + "' needs a bound, as in " + name + ":4K", false;
      closed = true;
      continue;
    }
    std::uint64_t bound = 0;
    if (!parse_size(item.substr(colon + 1), &bound))
      return *error = "'" + item.substr(colon + 1) + "' is not a byte count", false;
    if (!bands->empty() && bound <= bands->back().max_bytes)
      return *error = "bounds must grow ('" + item + "')", false;
    bands->push_back({bound, path});
  }
  if (bands->empty() && !closed) return *error = "no bands", false;
  return true;
}

std::string format_bands(Collective c, const std::vector<Band>& bands) {
  std::string out;
  for (const Band& b : bands) out += path_name(c, b.path) + ":" + short_bytes(b.max_bytes) + " ";
  return out + "pmpi";
}

int band_path(const std::vector<Band>& bands, std::uint64_t bytes) {
  for (const Band& b : bands)
    if (bytes <= b.max_bytes) return b.path;
  return 0;
}

const TableRow* nearest_row(const std::vector<TableRow>& rows, int ranks, bool oversubscribed) {
  bool any_alike = false;
  for (const TableRow& r : rows) any_alike = any_alike || r.oversubscribed == oversubscribed;
  const TableRow* best = nullptr;
  double best_distance = 0;
  for (const TableRow& r : rows) {
    if (any_alike && r.oversubscribed != oversubscribed) continue;
    const double distance = std::fabs(std::log2(static_cast<double>(r.ranks)) -
                                      std::log2(static_cast<double>(ranks < 1 ? 1 : ranks)));
    if (!best || distance < best_distance - 1e-9 ||
        (distance < best_distance + 1e-9 && r.ranks < best->ranks)) {
      best = &r;
      best_distance = distance;
    }
  }
  return best;
}

// Measured with mcorecoll_bench (every path forced against PMPI_X in the same run; medians of
// paired rounds), Open MPI 4.1.4 (coll/tuned) and MPICH 4.0.2, on two machines:
//   VM: the 2-vCPU development VM (AMD EPYC, 1 package, 1 NUMA node), np 2 bound, np 4
//       oversubscribed, 2026-11-21/22 (bench/results/*.csv);
//   node16: a 16-core Intel Xeon node (1 socket, 1 NUMA node, 300 MiB L3), np 8 and 16 bound,
//       2026-11-22 (../shared/measurements/np16-2026-11-22.md; measured there, not by us);
//   device16: a machine of the same kind, np 16 bound, 2026-11-26, measured by us: every np 16
//       row from mcorecoll-tune's run there in both measures (the slowest rank's time, and the
//       mean over ranks of each rank's own), a size winning only where it wins in both
//       (bench/results/np16-device/: README.md, rows.py); Open MPI's exscan from the earlier run
//       (bench/results/device16/), which the tuner's time did not reach.
// Bounds are the largest measured sizes where the path won. The reductions and allgather, per
// measured size: shared memory where it beat the MPI library's own route through mcorecoll
// (the interposition costs up to 1.24x on calls of 0.1 us) by 5% in the median and lost to it
// by no more than 5% in any run; bench/results/reductions/rows.py computes these rows.
std::vector<TableRow> default_rows(Collective c) {
  std::vector<TableRow> rows;
#if defined(MCORECOLL_FOR_MPICH)
  if (c == Collective::bcast) {
    rows.push_back(row(c, 2, false, "shm:4K pmpi", "VM np 2: the ring 0.15-0.67x up to 4 KiB, 1.5-2x at 16 KiB [bench/results: mpich-np2-bcast-1.csv mpich-np2-bcast-2.csv]"));
    rows.push_back(row(c, 4, true, "shm:4K pmpi", "VM np 4 oversubscribed: the ring 0.03-0.12x up to 4 KiB; larger not measured [bench/results: mpich-np4-bcast-small.csv mpich-np4-bcast.csv]"));
    rows.push_back(row(c, 16, false, "shm:16M pmpi", "device16 np 16, both measures: shm 0.10-0.96x at 1 B-16 MiB [bench/results: np16-device/tune/mpich/np16-shm.csv]"));
  } else if (c == Collective::alltoall) {
    rows.push_back(row(c, 2, false, "shm:8K cma:1M pmpi", "VM np 2: staging 0.27-0.34x up to 8 KiB, single copy 0.47-0.95x from 16 KiB to 1 MiB [bench/results: mpich-np2-alltoall-forced-shm.csv mpich-np2-alltoall-forced-cma.csv]"));
    rows.push_back(row(c, 4, true, "shm:8K cma:1M pmpi", "VM np 4 oversubscribed: 0.02-0.09x up to 1 MiB [bench/results: mpich-np4-alltoall.csv]"));
    rows.push_back(row(c, 16, false, "shm:4K cma:32K pmpi", "device16 np 16, both measures: shm 0.19-0.94x at 1 B-4 KiB; cma 0.75-1.13x at 8 KiB-32 KiB; PMPI where shared memory took 1.73-3.14x at 64 KiB-1 MiB [bench/results: np16-device/tune/mpich/np16-shm.csv np16-device/tune/mpich/np16-cma.csv]"));
  } else if (c == Collective::allreduce) {
    rows.push_back(row(c, 2, false, "shm:512K pmpi", "VM np 2, 4 runs, 8 B-8M: shared memory 0.24-0.97x where taken, PMPI through mcorecoll 0.99-1.01x where left to it [bench/results: reductions/mpich-np2-forced-shm-1.csv reductions/mpich-np2-forced-shm-2.csv reductions/mpich-np2-forced-shm-3.csv reductions/mpich-np2-forced-shm-4.csv reductions/mpich-np2-forced-pmpi-1.csv reductions/mpich-np2-forced-pmpi-2.csv reductions/mpich-np2-forced-pmpi-3.csv reductions/mpich-np2-forced-pmpi-4.csv]"));
    rows.push_back(row(c, 4, true, "shm:512K pmpi", "VM np 4 oversubscribed, 2 runs, 8 B-512K: shared memory 0.00-0.02x where taken [bench/results: reductions/mpich-np4-forced-shm-1.csv reductions/mpich-np4-forced-shm-2.csv reductions/mpich-np4-forced-pmpi-1.csv reductions/mpich-np4-forced-pmpi-2.csv]"));
  } else if (c == Collective::reduce) {
    rows.push_back(row(c, 2, false, "shm:8M pmpi", "VM np 2, 4 runs, 8 B-8M: shared memory 0.20-0.98x where taken [bench/results: reductions/mpich-np2-forced-shm-1.csv reductions/mpich-np2-forced-shm-2.csv reductions/mpich-np2-forced-shm-3.csv reductions/mpich-np2-forced-shm-4.csv reductions/mpich-np2-forced-pmpi-1.csv reductions/mpich-np2-forced-pmpi-2.csv reductions/mpich-np2-forced-pmpi-3.csv reductions/mpich-np2-forced-pmpi-4.csv]"));
    rows.push_back(row(c, 4, true, "shm:512K pmpi", "VM np 4 oversubscribed, 2 runs, 8 B-512K: shared memory 0.00-0.25x where taken [bench/results: reductions/mpich-np4-forced-shm-1.csv reductions/mpich-np4-forced-shm-2.csv reductions/mpich-np4-forced-pmpi-1.csv reductions/mpich-np4-forced-pmpi-2.csv]"));
  } else if (c == Collective::allgather) {
    rows.push_back(row(c, 2, false, "shm:128K pmpi", "VM np 2, 4 runs, 8 B-8M: shared memory 0.36-0.85x where taken, PMPI through mcorecoll 0.99-1.07x where left to it [bench/results: reductions/mpich-np2-forced-shm-1.csv reductions/mpich-np2-forced-shm-2.csv reductions/mpich-np2-forced-shm-3.csv reductions/mpich-np2-forced-shm-4.csv reductions/mpich-np2-forced-pmpi-1.csv reductions/mpich-np2-forced-pmpi-2.csv reductions/mpich-np2-forced-pmpi-3.csv reductions/mpich-np2-forced-pmpi-4.csv]"));
    rows.push_back(row(c, 4, true, "shm:512K pmpi", "VM np 4 oversubscribed, 2 runs, 8 B-512K: shared memory 0.00-0.05x where taken [bench/results: reductions/mpich-np4-forced-shm-1.csv reductions/mpich-np4-forced-shm-2.csv reductions/mpich-np4-forced-pmpi-1.csv reductions/mpich-np4-forced-pmpi-2.csv]"));
  }
  // np 16 bound (device16, both measures). The staged allreduce and reduce lose at 4-16 KiB
  // there, where every rank folds all 16 contributions (no slices below 16 x 2 KiB).
  if (c == Collective::allreduce) rows.push_back(row(c, 16, false, "shm:2K pmpi:16K shm:16M pmpi", "device16 np 16, both measures: shm 0.24-0.68x at 1 B-2 KiB; PMPI where shared memory took 1.06-1.97x at 4 KiB-16 KiB; shm 0.59-0.91x at 32 KiB-16 MiB [bench/results: np16-device/tune/mpich/np16-reductions.csv]"));
  if (c == Collective::reduce) rows.push_back(row(c, 16, false, "shm:8 pmpi:16K shm:16M pmpi", "device16 np 16, both measures: shm 0.71-0.93x at 1 B-8 B; PMPI where shared memory took 0.44-2.42x at 16 B-16 KiB; shm 0.30-0.87x at 32 KiB-16 MiB [bench/results: np16-device/tune/mpich/np16-reductions.csv]"));
  if (c == Collective::allgather) rows.push_back(row(c, 16, false, "shm:1M pmpi", "device16 np 16, both measures: shm 0.19-0.94x at 1 B-1 MiB [bench/results: np16-device/tune/mpich/np16-reductions.csv]"));
  // 32, 64 and 128 ranks: predicted by tools/node-model.py from the np 16 run (doc/node-model.md),
  // not measured: shared memory only where the model has it at most 0.8x of the MPI library's
  // own on both an EPYC-like and a Xeon-like node (doc/node-model/rows.txt).
  if (c == Collective::allreduce) rows.push_back(row(c, 32, false, "shm:1K pmpi:4095 shm:512K pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/6-defaults/mpich-np16-reductions.csv]"));
  if (c == Collective::allreduce) rows.push_back(row(c, 64, false, "shm:512 pmpi:8191 shm:1M pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/6-defaults/mpich-np16-reductions.csv]"));
  if (c == Collective::allreduce) rows.push_back(row(c, 128, false, "shm:256 pmpi:16383 shm:1M pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/6-defaults/mpich-np16-reductions.csv]"));
  if (c == Collective::reduce) rows.push_back(row(c, 32, false, "shm:248 pmpi:4095 shm:4M pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/6-defaults/mpich-np16-reductions.csv]"));
  if (c == Collective::reduce) rows.push_back(row(c, 64, false, "shm:248 pmpi:8191 shm:4M pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/6-defaults/mpich-np16-reductions.csv]"));
  if (c == Collective::reduce) rows.push_back(row(c, 128, false, "shm:248 pmpi:16383 shm:4M pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/6-defaults/mpich-np16-reductions.csv]"));
  // The collectives inside one node only (bench/mcorecoll_bench --coll node-only, every path
  // forced against PMPI_X in the same run, 2026-11-25). np 4 oversubscribed not measured with
  // MPICH: the np 2 row is the nearest. Alltoallv, gatherv and scatterv: measured after their
  // header line replaced the round of agreement (v-header-line files); while their last header
  // line found a size left to PMPI they skip it (entry/call_decision.cpp). The reduce-scatters:
  // measured again once each rank folded only its own block (2026-11-27,
  // bench/results/reduce-scatter-blocks/: forced onto shared memory and forced to the MPI
  // library through mcorecoll, each against PMPI_X, 4 runs; bench/results/reductions/rows.py's rule).
  if (c == Collective::allgatherv) rows.push_back(row(c, 2, false, "shm:32K pmpi", "VM np 2, 2 runs: 0.20-0.76x [bench/results: node-only/mpich-np2-forced-shm-1.csv node-only/mpich-np2-forced-shm-2.csv]"));
  if (c == Collective::gather) rows.push_back(row(c, 2, false, "pmpi:64 shm:32K pmpi", "VM np 2, 2 runs: 0.21-0.72x from 512 B, 0.74-1.09x below [bench/results: node-only/mpich-np2-forced-shm-1.csv node-only/mpich-np2-forced-shm-2.csv]"));
  if (c == Collective::scatter) rows.push_back(row(c, 2, false, "pmpi:8 shm:32K pmpi", "VM np 2, 2 runs: 0.20-0.78x from 64 B, 0.72-1.18x at 8 B [bench/results: node-only/mpich-np2-forced-shm-1.csv node-only/mpich-np2-forced-shm-2.csv]"));
  if (c == Collective::reduce_scatter_block) rows.push_back(row(c, 2, false, "shm:512K pmpi:4M shm:8M pmpi", "VM np 2, 4 runs, 8 B-8M: shared memory 0.05-0.96x where taken, PMPI through mcorecoll 0.99-1.03x where left to it, each rank folding its own block [bench/results: reduce-scatter-blocks/np2-np4/mpich-np2-reduce_scatter_block-forced-shm-1.csv reduce-scatter-blocks/np2-np4/mpich-np2-reduce_scatter_block-forced-shm-2.csv reduce-scatter-blocks/np2-np4/mpich-np2-reduce_scatter_block-forced-shm-3.csv reduce-scatter-blocks/np2-np4/mpich-np2-reduce_scatter_block-forced-shm-4.csv reduce-scatter-blocks/np2-np4/mpich-np2-reduce_scatter_block-forced-pmpi-1.csv reduce-scatter-blocks/np2-np4/mpich-np2-reduce_scatter_block-forced-pmpi-2.csv reduce-scatter-blocks/np2-np4/mpich-np2-reduce_scatter_block-forced-pmpi-3.csv reduce-scatter-blocks/np2-np4/mpich-np2-reduce_scatter_block-forced-pmpi-4.csv]"));
  if (c == Collective::reduce_scatter) rows.push_back(row(c, 2, false, "shm:512K pmpi:2M shm:8M pmpi", "VM np 2, 4 runs, 8 B-8M: shared memory 0.05-0.96x where taken, PMPI through mcorecoll 1.00-1.01x where left to it, each rank folding its own block [bench/results: reduce-scatter-blocks/np2-np4/mpich-np2-reduce_scatter-forced-shm-1.csv reduce-scatter-blocks/np2-np4/mpich-np2-reduce_scatter-forced-shm-2.csv reduce-scatter-blocks/np2-np4/mpich-np2-reduce_scatter-forced-shm-3.csv reduce-scatter-blocks/np2-np4/mpich-np2-reduce_scatter-forced-shm-4.csv reduce-scatter-blocks/np2-np4/mpich-np2-reduce_scatter-forced-pmpi-1.csv reduce-scatter-blocks/np2-np4/mpich-np2-reduce_scatter-forced-pmpi-2.csv reduce-scatter-blocks/np2-np4/mpich-np2-reduce_scatter-forced-pmpi-3.csv reduce-scatter-blocks/np2-np4/mpich-np2-reduce_scatter-forced-pmpi-4.csv]"));
  if (c == Collective::scan) rows.push_back(row(c, 2, false, "shm:256K pmpi", "VM np 2, 2 runs: 0.006-0.17x [bench/results: node-only/mpich-np2-forced-shm-1.csv node-only/mpich-np2-forced-shm-2.csv]"));
  if (c == Collective::exscan) rows.push_back(row(c, 2, false, "shm:256K pmpi", "VM np 2, 2 runs: 0.011-0.36x [bench/results: node-only/mpich-np2-forced-shm-1.csv node-only/mpich-np2-forced-shm-2.csv]"));
  if (c == Collective::alltoallv) rows.push_back(row(c, 2, false, "shm:32K pmpi", "VM np 2, 1 run: 0.33-0.78x [bench/results: node-only/mpich-np2-v-header-line-forced-shm-1.csv]"));
  if (c == Collective::gatherv) rows.push_back(row(c, 2, false, "pmpi:4K shm:32K pmpi", "VM np 2, 1 run: 0.55x at 32 KiB, 1.03-1.77x below [bench/results: node-only/mpich-np2-v-header-line-forced-shm-1.csv]"));
  if (c == Collective::scatterv) rows.push_back(row(c, 2, false, "pmpi:4K shm:32K pmpi", "VM np 2, 1 run: 0.46x at 32 KiB, 0.57-1.23x below [bench/results: node-only/mpich-np2-v-header-line-forced-shm-1.csv]"));
  // np 16 bound (device16, both measures; exscan from the defaults runs there).
  if (c == Collective::alltoallv) rows.push_back(row(c, 16, false, "shm:4K pmpi", "device16 np 16, both measures: shm 0.32-0.94x at 1 B-4 KiB; PMPI where shared memory took 1.11-2.79x at 8 KiB-1 MiB [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::allgatherv) rows.push_back(row(c, 16, false, "shm:1M pmpi", "device16 np 16, both measures: shm 0.31-0.59x at 1 B-1 MiB [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::gather) rows.push_back(row(c, 16, false, "pmpi:64 shm:1M pmpi", "device16 np 16, both measures: PMPI where shared memory took 1.02-1.87x at 1 B-64 B; shm 0.50-1.00x at 128 B-1 MiB [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::gatherv) rows.push_back(row(c, 16, false, "shm:4K pmpi:64K shm:1M pmpi", "device16 np 16, both measures: shm 0.06-0.57x at 1 B-4 KiB; PMPI where shared memory took 0.99-1.35x at 8 KiB-64 KiB; shm 0.86-0.91x at 128 KiB-1 MiB [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::scatter) rows.push_back(row(c, 16, false, "shm:256 pmpi:1K shm:8K pmpi:256K shm:1M pmpi", "device16 np 16, both measures: shm 0.65-0.94x at 1 B-256 B; PMPI where shared memory took 1.00-1.40x at 512 B-1 KiB; shm 0.76-0.77x at 2 KiB-8 KiB; PMPI where shared memory took 1.03-1.25x at 16 KiB-256 KiB; shm 0.50-0.73x at 512 KiB-1 MiB [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::scatterv) rows.push_back(row(c, 16, false, "shm:2K pmpi", "device16 np 16, both measures: shm 0.26-0.86x at 1 B-2 KiB; PMPI where shared memory took 1.28-16.35x at 4 KiB-1 MiB [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::reduce_scatter_block) rows.push_back(row(c, 16, false, "shm:512 pmpi", "device16 np 16, both measures: shm 0.32-0.88x at 1 B-512 B; PMPI where shared memory took 1.09-4.47x at 1 KiB-16 MiB [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::reduce_scatter) rows.push_back(row(c, 16, false, "shm:512 pmpi", "device16 np 16, both measures: shm 0.31-0.86x at 1 B-512 B; PMPI where shared memory took 0.95-4.18x at 1 KiB-16 MiB [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::scan) rows.push_back(row(c, 16, false, "shm:128K pmpi", "device16 np 16, both measures: shm 0.15-0.92x at 1 B-128 KiB; PMPI where shared memory took 1.19-2.12x at 256 KiB-4 MiB [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::exscan) rows.push_back(row(c, 16, false, "shm:16K pmpi", "device16 np 16, both measures: shm 0.25-0.82x at 1 B-16 KiB; PMPI where shared memory took 0.97-1.78x at 64 KiB-256 KiB [bench/results: np16-device/2-defaults/mpich-np16-node-only.csv]"));
  // 32, 64 and 128 ranks: predicted (tools/node-model.py, doc/node-model.md), not measured: the
  // scans' tree reads at most 2 log2 n blocks a rank, where MPICH's recursive doubling sends
  // log2 n messages, and the model has it the faster up to 4 MiB. Capped at the sizes the np 16
  // rows above take (measured with the flat scan, before the tree): the model leaves out the
  // node's memory bandwidth, shared by every rank of a large call.
  if (c == Collective::scan) rows.push_back(row(c, 32, false, "shm:128K pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/6-defaults/mpich-np16-node-only.csv]"));
  if (c == Collective::scan) rows.push_back(row(c, 64, false, "shm:128K pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/6-defaults/mpich-np16-node-only.csv]"));
  if (c == Collective::scan) rows.push_back(row(c, 128, false, "shm:128K pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/6-defaults/mpich-np16-node-only.csv]"));
  if (c == Collective::exscan) rows.push_back(row(c, 32, false, "shm:16K pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/6-defaults/mpich-np16-node-only.csv]"));
  if (c == Collective::exscan) rows.push_back(row(c, 64, false, "shm:16K pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/6-defaults/mpich-np16-node-only.csv]"));
  if (c == Collective::exscan) rows.push_back(row(c, 128, false, "shm:16K pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/6-defaults/mpich-np16-node-only.csv]"));
  // 32, 64 and 128 ranks, the other collectives: predicted by tools/node-model.py from
  // mcorecoll-tune's np 16 run (doc/node-model.md), not measured: the path the model has at
  // most 0.8x of the MPI library's own on both node shapes and in both measures.
  if (c == Collective::bcast) rows.push_back(row(c, 32, false, "shm:1M pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-shm.csv np16-device/tune/mpich/np16-cma.csv]"));
  if (c == Collective::bcast) rows.push_back(row(c, 64, false, "shm:1M pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-shm.csv np16-device/tune/mpich/np16-cma.csv]"));
  if (c == Collective::bcast) rows.push_back(row(c, 128, false, "shm:1M pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-shm.csv np16-device/tune/mpich/np16-cma.csv]"));
  if (c == Collective::allgather) rows.push_back(row(c, 32, false, "shm:128 pmpi:1K shm:64K pmpi:128K shm:256K pmpi:512K shm:1M pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-reductions.csv]"));
  if (c == Collective::allgather) rows.push_back(row(c, 64, false, "shm:128 pmpi:1K shm:64K pmpi:128K shm:256K pmpi:512K shm:1M pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-reductions.csv]"));
  if (c == Collective::allgather) rows.push_back(row(c, 128, false, "shm:128 pmpi:1K shm:64K pmpi:128K shm:256K pmpi:512K shm:1M pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-reductions.csv]"));
  if (c == Collective::allgatherv) rows.push_back(row(c, 32, false, "pmpi:16 shm:1M pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::allgatherv) rows.push_back(row(c, 64, false, "pmpi:64 shm:256 pmpi:512 shm:1M pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::allgatherv) rows.push_back(row(c, 128, false, "pmpi:1K shm:1M pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::gather) rows.push_back(row(c, 32, false, "pmpi:512 shm:2K pmpi:8K shm:1M pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::gather) rows.push_back(row(c, 64, false, "pmpi:512 shm:2K pmpi:8K shm:1M pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::gather) rows.push_back(row(c, 128, false, "pmpi:8K shm:1M pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::gatherv) rows.push_back(row(c, 32, false, "shm:4K pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::gatherv) rows.push_back(row(c, 64, false, "shm:4 pmpi:8 shm:4K pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::gatherv) rows.push_back(row(c, 128, false, "pmpi:32 shm:4K pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::scatter) rows.push_back(row(c, 32, false, "pmpi:2K shm:4K pmpi:256K shm:1M pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::scatter) rows.push_back(row(c, 64, false, "pmpi:2K shm:4K pmpi:256K shm:1M pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::scatter) rows.push_back(row(c, 128, false, "pmpi:256K shm:1M pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::scatterv) rows.push_back(row(c, 32, false, "pmpi:16 shm:32 pmpi:64 shm:1K pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::scatterv) rows.push_back(row(c, 64, false, "pmpi:64 shm:1K pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::scatterv) rows.push_back(row(c, 128, false, "pmpi:64 shm:512 pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::alltoall) rows.push_back(row(c, 32, false, "pmpi:16 shm:1K pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-shm.csv np16-device/tune/mpich/np16-cma.csv]"));
  if (c == Collective::alltoall) rows.push_back(row(c, 64, false, "pmpi:32 shm:256 pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-shm.csv np16-device/tune/mpich/np16-cma.csv]"));
  if (c == Collective::alltoall) rows.push_back(row(c, 128, false, "pmpi:128 shm:256 pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-shm.csv np16-device/tune/mpich/np16-cma.csv]"));
  if (c == Collective::alltoallv) rows.push_back(row(c, 32, false, "pmpi:64 shm:256 pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::alltoallv) rows.push_back(row(c, 64, false, "pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::alltoallv) rows.push_back(row(c, 128, false, "pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::reduce_scatter_block) rows.push_back(row(c, 32, false, "shm:128 pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::reduce_scatter_block) rows.push_back(row(c, 64, false, "shm:128 pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::reduce_scatter_block) rows.push_back(row(c, 128, false, "shm:128 pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::reduce_scatter) rows.push_back(row(c, 32, false, "shm:128 pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::reduce_scatter) rows.push_back(row(c, 64, false, "shm:128 pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
  if (c == Collective::reduce_scatter) rows.push_back(row(c, 128, false, "shm:128 pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/tune/mpich/np16-node-only.csv]"));
#else
  if (c == Collective::bcast) {
    rows.push_back(row(c, 2, false, "shm:4K pmpi", "VM np 2: the ring 0.19-0.85x up to 4 KiB, 1.0-1.9x at 8-16 KiB in the VM's slow state [bench/results: openmpi-np2-bcast-3.csv openmpi-np2-bcast-states.txt]"));
    rows.push_back(row(c, 4, true, "shm:1M pmpi", "VM np 4 oversubscribed: the ring 0.08-0.73x up to 1 MiB [bench/results: openmpi-np4-bcast-1.csv]"));
    rows.push_back(row(c, 8, false, "shm:4K pmpi", "node16 np 8: the ring 0.21-0.44x up to 4 KiB; larger sizes not measured with the ring [bench/results: node16/measured-2026-11-22.csv]"));
    rows.push_back(row(c, 16, false, "shm:16M pmpi", "device16 np 16, both measures: shm 0.16-0.82x at 1 B-16 MiB [bench/results: np16-device/tune/openmpi/np16-shm.csv]"));
  } else if (c == Collective::alltoall) {
    rows.push_back(row(c, 2, false, "shm:8K cma:128K pmpi", "VM np 2: staging 0.43-0.91x up to 8 KiB, single copy 0.69-0.94x from 16 KiB to 128 KiB [bench/results: openmpi-np2-alltoall-forced-fine-shm.csv openmpi-np2-alltoall-forced-fine-cma.csv]"));
    rows.push_back(row(c, 4, true, "shm:16K cma:1M pmpi", "VM np 4 oversubscribed: staging 0.28-0.58x up to 16 KiB, single copy 0.82-0.95x to 1 MiB [bench/results: openmpi-np4-alltoall-forced-shm.csv openmpi-np4-alltoall-forced-cma.csv]"));
    rows.push_back(row(c, 8, false, "shm:8K cma:64K pmpi", "node16 np 8: staging 0.49-0.79x up to 4 KiB, single copy 0.55-0.69x at 16-64 KiB; larger not measured [bench/results: node16/measured-2026-11-22.csv]"));
    rows.push_back(row(c, 16, false, "shm:4K cma:1M pmpi", "device16 np 16, both measures: shm 0.41-0.65x at 1 B-4 KiB; cma 0.57-0.84x at 8 KiB-1 MiB [bench/results: np16-device/tune/openmpi/np16-shm.csv np16-device/tune/openmpi/np16-cma.csv]"));
  } else if (c == Collective::allreduce) {
    rows.push_back(row(c, 2, false, "shm:8M pmpi", "VM np 2, 4 runs, 8 B-8M: shared memory 0.30-1.00x where taken [bench/results: reductions/openmpi-np2-forced-shm-1.csv reductions/openmpi-np2-forced-shm-2.csv reductions/openmpi-np2-forced-shm-3.csv reductions/openmpi-np2-forced-shm-4.csv reductions/openmpi-np2-forced-pmpi-1.csv reductions/openmpi-np2-forced-pmpi-2.csv reductions/openmpi-np2-forced-pmpi-3.csv reductions/openmpi-np2-forced-pmpi-4.csv]"));
    rows.push_back(row(c, 4, true, "shm:2M pmpi", "VM np 4 oversubscribed, 2 runs, 8 B-2M: shared memory 0.25-0.66x where taken [bench/results: reductions/openmpi-np4-forced-shm-1.csv reductions/openmpi-np4-forced-shm-2.csv reductions/openmpi-np4-forced-pmpi-1.csv reductions/openmpi-np4-forced-pmpi-2.csv]"));
  } else if (c == Collective::reduce) {
    rows.push_back(row(c, 2, false, "shm:32K pmpi:128K shm:8M pmpi", "VM np 2, 4 runs, 8 B-8M: shared memory 0.42-1.12x where taken, PMPI through mcorecoll 1.01-1.02x where left to it [bench/results: reductions/openmpi-np2-forced-shm-1.csv reductions/openmpi-np2-forced-shm-2.csv reductions/openmpi-np2-forced-shm-3.csv reductions/openmpi-np2-forced-shm-4.csv reductions/openmpi-np2-forced-pmpi-1.csv reductions/openmpi-np2-forced-pmpi-2.csv reductions/openmpi-np2-forced-pmpi-3.csv reductions/openmpi-np2-forced-pmpi-4.csv]"));
    rows.push_back(row(c, 4, true, "pmpi:128 shm:2M pmpi", "VM np 4 oversubscribed, 2 runs, 8 B-2M: shared memory 0.42-0.75x where taken, PMPI through mcorecoll 1.04-1.13x where left to it [bench/results: reductions/openmpi-np4-forced-shm-1.csv reductions/openmpi-np4-forced-shm-2.csv reductions/openmpi-np4-forced-pmpi-1.csv reductions/openmpi-np4-forced-pmpi-2.csv]"));
  } else if (c == Collective::allgather) {
    rows.push_back(row(c, 2, false, "shm:8K pmpi", "VM np 2, 4 runs, 8 B-8M: shared memory 0.46-0.82x where taken, PMPI through mcorecoll 0.97-1.04x where left to it [bench/results: reductions/openmpi-np2-forced-shm-1.csv reductions/openmpi-np2-forced-shm-2.csv reductions/openmpi-np2-forced-shm-3.csv reductions/openmpi-np2-forced-shm-4.csv reductions/openmpi-np2-forced-pmpi-1.csv reductions/openmpi-np2-forced-pmpi-2.csv reductions/openmpi-np2-forced-pmpi-3.csv reductions/openmpi-np2-forced-pmpi-4.csv]"));
    rows.push_back(row(c, 4, true, "shm:2M pmpi", "VM np 4 oversubscribed, 2 runs, 8 B-2M: shared memory 0.24-0.94x where taken [bench/results: reductions/openmpi-np4-forced-shm-1.csv reductions/openmpi-np4-forced-shm-2.csv reductions/openmpi-np4-forced-pmpi-1.csv reductions/openmpi-np4-forced-pmpi-2.csv]"));
  }
  // np 16 bound (device16, both measures; as for MPICH above).
  if (c == Collective::allreduce) rows.push_back(row(c, 16, false, "shm:2K pmpi:16K shm:16M pmpi", "device16 np 16, both measures: shm 0.40-0.89x at 1 B-2 KiB; PMPI where shared memory took 1.26-1.97x at 4 KiB-16 KiB; shm 0.62-0.93x at 32 KiB-16 MiB [bench/results: np16-device/tune/openmpi/np16-reductions.csv]"));
  if (c == Collective::reduce) rows.push_back(row(c, 16, false, "pmpi:16K shm:16M pmpi", "device16 np 16, both measures: PMPI where shared memory took 1.10-2.50x at 1 B-16 KiB; shm 0.29-0.80x at 32 KiB-16 MiB [bench/results: np16-device/tune/openmpi/np16-reductions.csv]"));
  if (c == Collective::allgather) rows.push_back(row(c, 16, false, "shm:1M pmpi", "device16 np 16, both measures: shm 0.19-0.74x at 1 B-1 MiB [bench/results: np16-device/tune/openmpi/np16-reductions.csv]"));
  // 32, 64 and 128 ranks: predicted by tools/node-model.py from the np 16 run (doc/node-model.md),
  // not measured: shared memory only where the model has it at most 0.8x of the MPI library's
  // own on both an EPYC-like and a Xeon-like node (doc/node-model/rows.txt).
  if (c == Collective::allreduce) rows.push_back(row(c, 32, false, "shm:512 pmpi:4095 shm:4M pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/6-defaults/openmpi-np16-reductions.csv]"));
  if (c == Collective::allreduce) rows.push_back(row(c, 64, false, "shm:248 pmpi:8191 shm:4M pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/6-defaults/openmpi-np16-reductions.csv]"));
  if (c == Collective::allreduce) rows.push_back(row(c, 128, false, "shm:248 pmpi:16383 shm:4M pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/6-defaults/openmpi-np16-reductions.csv]"));
  if (c == Collective::reduce) rows.push_back(row(c, 32, false, "shm:248 pmpi:4095 shm:4M pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/6-defaults/openmpi-np16-reductions.csv]"));
  if (c == Collective::reduce) rows.push_back(row(c, 64, false, "shm:248 pmpi:8191 shm:4M pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/6-defaults/openmpi-np16-reductions.csv]"));
  if (c == Collective::reduce) rows.push_back(row(c, 128, false, "shm:248 pmpi:16383 shm:4M pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/6-defaults/openmpi-np16-reductions.csv]"));
  // As above, Open MPI 4.1.4; the small sizes checked again on Open MPI 5.0.7 too (2026-11-26): Open
  // MPI's own switches protocol between 256 and 512 B, where the staged exchange starts to win.
  // The reduce-scatters as for MPICH above (bench/results/reduce-scatter-blocks/).
  if (c == Collective::allgatherv) rows.push_back(row(c, 2, false, "pmpi:256 shm:32K pmpi", "VM np 2, 2 runs: staging 0.18-0.92x from 64 B, 0.98-0.99x at 8 B; 64 B-1 KiB by factors of 2, Open MPI 4.1.4 and 5.0.7, 1 run each: staging loses or ties up to 256 (pmpi:8 shm:32K pmpi before) [bench/results: node-only/openmpi-np2-forced-shm-1.csv node-only/openmpi-np2-forced-shm-2.csv crossover/debian12-openmpi-np2-forced-shm.csv crossover/debian13-openmpi-np2-forced-shm.csv]"));
  if (c == Collective::allgatherv) rows.push_back(row(c, 4, true, "shm:32K pmpi", "VM np 4 oversubscribed, 1 run: 0.18-0.62x [bench/results: node-only/openmpi-np4-forced-shm-1.csv]"));
  if (c == Collective::gather) rows.push_back(row(c, 2, false, "pmpi:256 shm:32K pmpi", "VM np 2, 2 runs: staging 0.13-0.37x from 512 B, 1.2-1.8x below; 64 B-1 KiB by factors of 2, Open MPI 4.1.4 and 5.0.7, 1 run each: staging loses or ties up to 256 (pmpi:64 shm:32K pmpi before) [bench/results: node-only/openmpi-np2-forced-shm-1.csv node-only/openmpi-np2-forced-shm-2.csv crossover/debian12-openmpi-np2-forced-shm.csv crossover/debian13-openmpi-np2-forced-shm.csv]"));
  if (c == Collective::gather) rows.push_back(row(c, 4, true, "pmpi:128 shm:32K pmpi", "VM np 4 oversubscribed, 1 run: 0.30-0.47x from 512 B, 3.3-7.7x below; 64 B-1 KiB by factors of 2, Open MPI 4.1.4 and 5.0.7, 1 run each: staging loses or ties up to 128 (pmpi:64 shm:32K pmpi before) [bench/results: node-only/openmpi-np4-forced-shm-1.csv crossover/debian12-openmpi-np4-forced-shm.csv crossover/debian13-openmpi-np4-forced-shm.csv]"));
  if (c == Collective::scatter) rows.push_back(row(c, 2, false, "pmpi:256 shm:32K pmpi", "VM np 2, 2 runs: 0.17-0.40x from 512 B, 1.2-2.0x below; 64 B-1 KiB by factors of 2, Open MPI 4.1.4 and 5.0.7, 1 run each: staging loses or ties up to 256 (pmpi:64 shm:32K pmpi before) [bench/results: node-only/openmpi-np2-forced-shm-1.csv node-only/openmpi-np2-forced-shm-2.csv crossover/debian12-openmpi-np2-forced-shm.csv crossover/debian13-openmpi-np2-forced-shm.csv]"));
  if (c == Collective::scatter) rows.push_back(row(c, 4, true, "pmpi:128 shm:4K pmpi", "VM np 4 oversubscribed, 1 run: 0.21-0.26x at 512 B-4 KiB, 1.08x at 32 KiB, 5-7x below; 64 B-1 KiB by factors of 2, Open MPI 4.1.4 and 5.0.7, 1 run each: staging loses or ties up to 128 (pmpi:64 shm:4K pmpi before) [bench/results: node-only/openmpi-np4-forced-shm-1.csv crossover/debian12-openmpi-np4-forced-shm.csv crossover/debian13-openmpi-np4-forced-shm.csv]"));
  if (c == Collective::reduce_scatter_block) rows.push_back(row(c, 2, false, "pmpi:16 shm:128 pmpi:256 shm:8M pmpi", "VM np 2, 4 runs, 8 B-8M: shared memory 0.08-1.03x where taken, PMPI through mcorecoll 0.99-1.04x where left to it, each rank folding its own block [bench/results: reduce-scatter-blocks/np2-np4/openmpi-np2-reduce_scatter_block-forced-shm-1.csv reduce-scatter-blocks/np2-np4/openmpi-np2-reduce_scatter_block-forced-shm-2.csv reduce-scatter-blocks/np2-np4/openmpi-np2-reduce_scatter_block-forced-shm-3.csv reduce-scatter-blocks/np2-np4/openmpi-np2-reduce_scatter_block-forced-shm-4.csv reduce-scatter-blocks/np2-np4/openmpi-np2-reduce_scatter_block-forced-pmpi-1.csv reduce-scatter-blocks/np2-np4/openmpi-np2-reduce_scatter_block-forced-pmpi-2.csv reduce-scatter-blocks/np2-np4/openmpi-np2-reduce_scatter_block-forced-pmpi-3.csv reduce-scatter-blocks/np2-np4/openmpi-np2-reduce_scatter_block-forced-pmpi-4.csv]"));
  if (c == Collective::reduce_scatter_block) rows.push_back(row(c, 4, true, "shm:8M pmpi", "VM np 4 oversubscribed, 4 runs, 8 B-8M: shared memory 0.06-0.73x where taken, each rank folding its own block [bench/results: reduce-scatter-blocks/np2-np4/openmpi-np4-reduce_scatter_block-forced-shm-1.csv reduce-scatter-blocks/np2-np4/openmpi-np4-reduce_scatter_block-forced-shm-2.csv reduce-scatter-blocks/np2-np4/openmpi-np4-reduce_scatter_block-forced-shm-3.csv reduce-scatter-blocks/np2-np4/openmpi-np4-reduce_scatter_block-forced-shm-4.csv reduce-scatter-blocks/np2-np4/openmpi-np4-reduce_scatter_block-forced-pmpi-1.csv reduce-scatter-blocks/np2-np4/openmpi-np4-reduce_scatter_block-forced-pmpi-2.csv reduce-scatter-blocks/np2-np4/openmpi-np4-reduce_scatter_block-forced-pmpi-3.csv reduce-scatter-blocks/np2-np4/openmpi-np4-reduce_scatter_block-forced-pmpi-4.csv]"));
  if (c == Collective::reduce_scatter) rows.push_back(row(c, 2, false, "pmpi:512 shm:8M pmpi", "VM np 2, 4 runs, 8 B-8M: shared memory 0.20-0.89x where taken, PMPI through mcorecoll 0.99-1.03x where left to it, each rank folding its own block [bench/results: reduce-scatter-blocks/np2-np4/openmpi-np2-reduce_scatter-forced-shm-1.csv reduce-scatter-blocks/np2-np4/openmpi-np2-reduce_scatter-forced-shm-2.csv reduce-scatter-blocks/np2-np4/openmpi-np2-reduce_scatter-forced-shm-3.csv reduce-scatter-blocks/np2-np4/openmpi-np2-reduce_scatter-forced-shm-4.csv reduce-scatter-blocks/np2-np4/openmpi-np2-reduce_scatter-forced-pmpi-1.csv reduce-scatter-blocks/np2-np4/openmpi-np2-reduce_scatter-forced-pmpi-2.csv reduce-scatter-blocks/np2-np4/openmpi-np2-reduce_scatter-forced-pmpi-3.csv reduce-scatter-blocks/np2-np4/openmpi-np2-reduce_scatter-forced-pmpi-4.csv]"));
  if (c == Collective::reduce_scatter) rows.push_back(row(c, 4, true, "shm:8M pmpi", "VM np 4 oversubscribed, 4 runs, 8 B-8M: shared memory 0.21-0.71x where taken, each rank folding its own block [bench/results: reduce-scatter-blocks/np2-np4/openmpi-np4-reduce_scatter-forced-shm-1.csv reduce-scatter-blocks/np2-np4/openmpi-np4-reduce_scatter-forced-shm-2.csv reduce-scatter-blocks/np2-np4/openmpi-np4-reduce_scatter-forced-shm-3.csv reduce-scatter-blocks/np2-np4/openmpi-np4-reduce_scatter-forced-shm-4.csv reduce-scatter-blocks/np2-np4/openmpi-np4-reduce_scatter-forced-pmpi-1.csv reduce-scatter-blocks/np2-np4/openmpi-np4-reduce_scatter-forced-pmpi-2.csv reduce-scatter-blocks/np2-np4/openmpi-np4-reduce_scatter-forced-pmpi-3.csv reduce-scatter-blocks/np2-np4/openmpi-np4-reduce_scatter-forced-pmpi-4.csv]"));
  if (c == Collective::scan) rows.push_back(row(c, 2, false, "pmpi:256 shm:256K pmpi", "VM np 2, 2 runs: 0.13-0.68x from 512 B, 0.98-1.69x below; 64 B-1 KiB by factors of 2, Open MPI 4.1.4 and 5.0.7, 1 run each: staging loses or ties up to 256 (pmpi:64 shm:256K pmpi before) [bench/results: node-only/openmpi-np2-forced-shm-1.csv node-only/openmpi-np2-forced-shm-2.csv crossover/debian12-openmpi-np2-forced-shm.csv crossover/debian13-openmpi-np2-forced-shm.csv]"));
  if (c == Collective::scan) rows.push_back(row(c, 4, true, "pmpi:256 shm:32K pmpi", "VM np 4 oversubscribed, 1 run: 0.34-0.65x at 512 B-32 KiB, 1.37x at 256 KiB, 6-15x below; 64 B-1 KiB by factors of 2, Open MPI 4.1.4 and 5.0.7, 1 run each: staging loses or ties up to 256 (pmpi:64 shm:32K pmpi before) [bench/results: node-only/openmpi-np4-forced-shm-1.csv crossover/debian12-openmpi-np4-forced-shm.csv crossover/debian13-openmpi-np4-forced-shm.csv]"));
  if (c == Collective::exscan) rows.push_back(row(c, 2, false, "pmpi:256 shm:32K pmpi", "VM np 2, 2 runs: 0.13-0.40x at 512 B-32 KiB, 1.3-1.5x at 256 KiB, 0.93-1.77x below; 64 B-1 KiB by factors of 2, Open MPI 4.1.4 and 5.0.7, 1 run each: staging loses or ties up to 256 (pmpi:64 shm:32K pmpi before) [bench/results: node-only/openmpi-np2-forced-shm-1.csv node-only/openmpi-np2-forced-shm-2.csv crossover/debian12-openmpi-np2-forced-shm.csv crossover/debian13-openmpi-np2-forced-shm.csv]"));
  if (c == Collective::exscan) rows.push_back(row(c, 4, true, "pmpi:256 shm:32K pmpi", "VM np 4 oversubscribed, 1 run: 0.34-0.56x at 512 B-32 KiB, 1.34x at 256 KiB, 7-19x below; 64 B-1 KiB by factors of 2, Open MPI 4.1.4 and 5.0.7, 1 run each: staging loses or ties up to 256 (pmpi:64 shm:32K pmpi before) [bench/results: node-only/openmpi-np4-forced-shm-1.csv crossover/debian12-openmpi-np4-forced-shm.csv crossover/debian13-openmpi-np4-forced-shm.csv]"));
  if (c == Collective::alltoallv) rows.push_back(row(c, 2, false, "pmpi:1K shm:32K pmpi", "VM np 2, 2 runs: 0.14-0.38x at 4-32 KiB, 0.98-1.01x at 512 B, 1.24-1.32x below; 64 B-1 KiB by factors of 2, Open MPI 4.1.4 and 5.0.7, 1 run each: staging loses or ties up to 1K (pmpi:512 shm:32K pmpi before) [bench/results: node-only/openmpi-np2-v-header-line-forced-shm-1.csv node-only/openmpi-np2-v-header-line-forced-shm-2.csv crossover/debian12-openmpi-np2-forced-shm.csv crossover/debian13-openmpi-np2-forced-shm.csv]"));
  if (c == Collective::alltoallv) rows.push_back(row(c, 4, true, "pmpi:1K shm:4K pmpi", "VM np 4 oversubscribed, 1 run: 0.50x at 4 KiB, 0.98-1.01x at 64 B, 512 B and 32 KiB; 64 B-1 KiB by factors of 2, Open MPI 4.1.4 and 5.0.7, 1 run each: staging loses or ties up to 1K (pmpi:512 shm:4K pmpi before) [bench/results: node-only/openmpi-np4-v-header-line-forced-shm-1.csv crossover/debian12-openmpi-np4-forced-shm.csv crossover/debian13-openmpi-np4-forced-shm.csv]"));
  if (c == Collective::gatherv) rows.push_back(row(c, 2, false, "pmpi:1K shm:32K pmpi", "VM np 2, 2 runs: 0.12-0.89x from 512 B, 2.1-2.3x below; 64 B-1 KiB by factors of 2, Open MPI 4.1.4 and 5.0.7, 1 run each: staging loses or ties up to 1K (pmpi:64 shm:32K pmpi before) [bench/results: node-only/openmpi-np2-v-header-line-forced-shm-1.csv node-only/openmpi-np2-v-header-line-forced-shm-2.csv crossover/debian12-openmpi-np2-forced-shm.csv crossover/debian13-openmpi-np2-forced-shm.csv]"));
  if (c == Collective::gatherv) rows.push_back(row(c, 4, true, "pmpi:1K shm:32K pmpi", "VM np 4 oversubscribed, 1 run: 0.59-0.73x from 4 KiB, 0.98x at 512 B, 8-10x below; 64 B-1 KiB by factors of 2, Open MPI 4.1.4 and 5.0.7, 1 run each: staging loses or ties up to 1K (pmpi:512 shm:32K pmpi before) [bench/results: node-only/openmpi-np4-v-header-line-forced-shm-1.csv crossover/debian12-openmpi-np4-forced-shm.csv crossover/debian13-openmpi-np4-forced-shm.csv]"));
  if (c == Collective::scatterv) rows.push_back(row(c, 2, false, "pmpi:256 shm:32K pmpi", "VM np 2, 2 runs: 0.09-0.55x from 512 B, 2.0-2.2x below; 64 B-1 KiB by factors of 2, Open MPI 4.1.4 and 5.0.7, 1 run each: staging loses or ties up to 256 (pmpi:64 shm:32K pmpi before) [bench/results: node-only/openmpi-np2-v-header-line-forced-shm-1.csv node-only/openmpi-np2-v-header-line-forced-shm-2.csv crossover/debian12-openmpi-np2-forced-shm.csv crossover/debian13-openmpi-np2-forced-shm.csv]"));
  if (c == Collective::scatterv) rows.push_back(row(c, 4, true, "pmpi:256 shm:32K pmpi", "VM np 4 oversubscribed, 1 run: 0.18-0.62x from 512 B, 8-9x below; 64 B-1 KiB by factors of 2, Open MPI 4.1.4 and 5.0.7, 1 run each: staging loses or ties up to 256 (pmpi:64 shm:32K pmpi before) [bench/results: node-only/openmpi-np4-v-header-line-forced-shm-1.csv crossover/debian12-openmpi-np4-forced-shm.csv crossover/debian13-openmpi-np4-forced-shm.csv]"));
  // np 16 bound (device16, both measures; exscan: the earlier run, its shared memory at every size).
  if (c == Collective::alltoallv) rows.push_back(row(c, 16, false, "shm:8K pmpi", "device16 np 16, both measures: shm 0.23-0.81x at 1 B-8 KiB; PMPI where shared memory took 1.02-1.49x at 16 KiB-1 MiB [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::allgatherv) rows.push_back(row(c, 16, false, "shm:1M pmpi", "device16 np 16, both measures: shm 0.25-0.88x at 1 B-1 MiB [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::gather) rows.push_back(row(c, 16, false, "pmpi:256 shm:1M pmpi", "device16 np 16, both measures: PMPI where shared memory took 1.23-4.49x at 1 B-256 B; shm 0.45-0.73x at 512 B-1 MiB [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::gatherv) rows.push_back(row(c, 16, false, "shm:1 pmpi:64 shm:512K pmpi", "device16 np 16, both measures: shm 0.81x at 1 B; PMPI where shared memory took 0.97-1.72x at 2 B-64 B; shm 0.41-0.92x at 128 B-512 KiB; PMPI where shared memory took 0.97x at 1 MiB [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::scatter) rows.push_back(row(c, 16, false, "pmpi:32 shm:16K pmpi", "device16 np 16, both measures: PMPI where shared memory took 1.19-1.38x at 1 B-32 B; shm 0.40-0.89x at 64 B-16 KiB; PMPI where shared memory took 2.10-3.01x at 32 KiB-1 MiB [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::scatterv) rows.push_back(row(c, 16, false, "shm:32K pmpi", "device16 np 16, both measures: shm 0.19-0.93x at 1 B-32 KiB; PMPI where shared memory took 1.26-2.07x at 64 KiB-1 MiB [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::reduce_scatter_block) rows.push_back(row(c, 16, false, "shm:256 pmpi:4M shm:16M pmpi", "device16 np 16, both measures: shm 0.28-0.47x at 1 B-256 B; PMPI where shared memory took 1.05-3.65x at 512 B-4 MiB; shm 0.24-0.60x at 8 MiB-16 MiB [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::reduce_scatter) rows.push_back(row(c, 16, false, "shm:256 pmpi", "device16 np 16, both measures: shm 0.47-0.82x at 1 B-256 B; PMPI where shared memory took 0.95-3.50x at 512 B-16 MiB [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::scan) rows.push_back(row(c, 16, false, "pmpi", "device16 np 16, both measures: PMPI where shared memory took 1.57-9.64x at 1 B-4 MiB [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::exscan) rows.push_back(row(c, 16, false, "pmpi", "device16 np 16, 1 run: 1.28-9.1x at every size (rank r folds r-1 images) [bench/results: device16/tune-openmpi/np16-node-only.csv]"));
  // 32, 64 and 128 ranks, the other collectives: predicted by tools/node-model.py from
  // mcorecoll-tune's np 16 run (doc/node-model.md), not measured: the path the model has at
  // most 0.8x of the MPI library's own on both node shapes and in both measures.
  if (c == Collective::bcast) rows.push_back(row(c, 32, false, "shm:4M pmpi:8M cma:16M pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-shm.csv np16-device/tune/openmpi/np16-cma.csv]"));
  if (c == Collective::bcast) rows.push_back(row(c, 64, false, "shm:4M pmpi:8M cma:16M pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-shm.csv np16-device/tune/openmpi/np16-cma.csv]"));
  if (c == Collective::bcast) rows.push_back(row(c, 128, false, "shm:4M pmpi:8M cma:16M pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-shm.csv np16-device/tune/openmpi/np16-cma.csv]"));
  if (c == Collective::allgather) rows.push_back(row(c, 32, false, "shm:128 pmpi:256 shm:1M pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-reductions.csv]"));
  if (c == Collective::allgather) rows.push_back(row(c, 64, false, "shm:128 pmpi:256 shm:1M pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-reductions.csv]"));
  if (c == Collective::allgather) rows.push_back(row(c, 128, false, "shm:128 pmpi:512 shm:1M pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-reductions.csv]"));
  if (c == Collective::allgatherv) rows.push_back(row(c, 32, false, "pmpi:16 shm:64K pmpi:128K shm:256K pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::allgatherv) rows.push_back(row(c, 64, false, "pmpi:32 shm:64K pmpi:128K shm:256K pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::allgatherv) rows.push_back(row(c, 128, false, "pmpi:128 shm:64K pmpi:128K shm:256K pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::gather) rows.push_back(row(c, 32, false, "pmpi:1K shm:1M pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::gather) rows.push_back(row(c, 64, false, "pmpi:1K shm:1M pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::gather) rows.push_back(row(c, 128, false, "pmpi:1K shm:1M pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::gatherv) rows.push_back(row(c, 32, false, "pmpi:512 shm:1K pmpi:2K shm:64K pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::gatherv) rows.push_back(row(c, 64, false, "pmpi:2K shm:64K pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::gatherv) rows.push_back(row(c, 128, false, "pmpi:2K shm:64K pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::scatter) rows.push_back(row(c, 32, false, "pmpi:64 shm:4K pmpi:8K shm:16K pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::scatter) rows.push_back(row(c, 64, false, "pmpi:64 shm:4K pmpi:8K shm:16K pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::scatter) rows.push_back(row(c, 128, false, "pmpi:128 shm:4K pmpi:8K shm:16K pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::scatterv) rows.push_back(row(c, 32, false, "pmpi:256 shm:16K pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::scatterv) rows.push_back(row(c, 64, false, "pmpi:256 shm:16K pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::scatterv) rows.push_back(row(c, 128, false, "pmpi:256 shm:16K pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::alltoall) rows.push_back(row(c, 32, false, "pmpi:128 shm:512 pmpi:2K shm:4K pmpi:16K cma:512K pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-shm.csv np16-device/tune/openmpi/np16-cma.csv]"));
  if (c == Collective::alltoall) rows.push_back(row(c, 64, false, "pmpi:2K shm:4K pmpi:32K cma:512K pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-shm.csv np16-device/tune/openmpi/np16-cma.csv]"));
  if (c == Collective::alltoall) rows.push_back(row(c, 128, false, "pmpi:32K cma:512K pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-shm.csv np16-device/tune/openmpi/np16-cma.csv]"));
  if (c == Collective::alltoallv) rows.push_back(row(c, 32, false, "shm:32 pmpi:2K shm:4K pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::alltoallv) rows.push_back(row(c, 64, false, "pmpi:2K shm:4K pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::alltoallv) rows.push_back(row(c, 128, false, "pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::reduce_scatter_block) rows.push_back(row(c, 32, false, "shm:256 pmpi:4M shm:16M pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::reduce_scatter_block) rows.push_back(row(c, 64, false, "shm:128 pmpi:4M shm:16M pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::reduce_scatter_block) rows.push_back(row(c, 128, false, "shm:128 pmpi:4M shm:16M pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::reduce_scatter) rows.push_back(row(c, 32, false, "shm:128 pmpi", "predicted, not measured: tools/node-model.py for 32 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::reduce_scatter) rows.push_back(row(c, 64, false, "shm:128 pmpi", "predicted, not measured: tools/node-model.py for 64 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
  if (c == Collective::reduce_scatter) rows.push_back(row(c, 128, false, "shm:128 pmpi", "predicted, not measured: tools/node-model.py for 128 ranks from the device16 np 16 run [bench/results: np16-device/tune/openmpi/np16-node-only.csv]"));
#endif
  return rows;
}

namespace {

// "BCAST_PATHS_NP", "ALLTOALL_PATHS_NP".
std::string row_setting_prefix(Collective c) { return setting_name(c) + "_PATHS_NP"; }

constexpr const char* kOversubscribedSuffix = "_OVERSUBSCRIBED";

}  // namespace

std::string row_setting_name(Collective c, int ranks, bool oversubscribed) {
  return row_setting_prefix(c) + std::to_string(ranks) + (oversubscribed ? kOversubscribedSuffix : "");
}

bool parse_row_setting_name(const std::string& name, Collective* c, int* ranks, bool* oversubscribed) {
  for (Collective coll : kAllCollectives) {
    if (coll == Collective::barrier) continue;
    const std::string prefix = row_setting_prefix(coll);
    if (name.rfind(prefix, 0) != 0) continue;
    std::string rest = name.substr(prefix.size());
    const std::string suffix = kOversubscribedSuffix;
    *oversubscribed = rest.size() > suffix.size() &&
                      rest.compare(rest.size() - suffix.size(), suffix.size(), suffix) == 0;
    if (*oversubscribed) rest.erase(rest.size() - suffix.size());
    if (rest.empty() || rest.size() > 6 || rest.find_first_not_of("0123456789") != std::string::npos)
      return false;
    *ranks = std::atoi(rest.c_str());
    *c = coll;
    return *ranks >= 1;
  }
  return false;
}

}  // namespace mcorecoll
