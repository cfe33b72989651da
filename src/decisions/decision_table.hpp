// The decision model of auto mode: for each collective, a table with one row per node size
// (ranks per node, and whether the node's ranks outnumber its CPUs), each row a list of size
// bands and the path that takes them, e.g. "ring:4K cma:4M pmpi": the ring of
// shared cells up to 4 KiB, single copy up to 4 MiB, the MPI library above. Rows come from
// measurements (mcorecoll_bench, every path against PMPI): the built-in rows (data:
// decisions/rows/<mpi>.txt, read by config.hpp's parser), or a tuning file that mcorecoll-tune
// wrote for the machine at hand. A communicator follows the row of its node
// size, or the nearest measured one. Pure logic, unit-tested.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "decisions/collective.hpp"

namespace mcorecoll {

struct Band {
  std::uint64_t max_bytes;  // the band's sizes end here (inclusive)
  int path;                 // 0 pmpi, k + 1 algorithm_names(c)[k]
};

struct TableRow {
  int ranks = 0;               // ranks per node measured
  bool oversubscribed = false;  // measured with more ranks than CPUs
  std::vector<Band> bands;     // ascending; sizes above the last band go to PMPI
  std::string source;          // where the row comes from, for mcorecoll-info and verbose mode
};

// "ring:4K cma:4M pmpi" (a path name with an inclusive upper bound, ascending; a last "pmpi"
// without bound may close it). False with `error` naming what is wrong.
bool parse_bands(Collective c, const std::string& text, std::vector<Band>* bands, std::string* error);
std::string format_bands(Collective c, const std::vector<Band>& bands);

// The path of a message of `bytes` under `bands` (PMPI above the last band).
int band_path(const std::vector<Band>& bands, std::uint64_t bytes);

// The row for a communicator whose fullest node has `ranks` ranks: the row measured with that
// many and the same oversubscription, else the nearest in ranks (on a log scale; on a tie the
// smaller, whose bounds are the more cautious), among rows of the same oversubscription if
// there are any. Null for an empty table.
const TableRow* nearest_row(const std::vector<TableRow>& rows, int ranks, bool oversubscribed);

// The name of a row's setting without the MCORECOLL_ prefix, e.g. "BCAST_PATHS_NP16" or
// "ALLTOALL_PATHS_NP4_OVERSUBSCRIBED"; and back (false when `name` is no such setting).
std::string row_setting_name(Collective c, int ranks, bool oversubscribed);
bool parse_row_setting_name(const std::string& name, Collective* c, int* ranks, bool* oversubscribed);

}  // namespace mcorecoll
