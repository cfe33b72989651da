// The job's report (MCORECOLL_REPORT=<file>): one JSON document written at MPI_Finalize by the
// world's rank 0, for people's tools and a site's records: the job (ranks, nodes, the node's
// shape, the MPI library, mcorecoll's version and settings) and, for each collective, form and
// path, the calls, bytes and each rank's time (least, mean, most over the ranks, its share of
// the job's time), the size classes seen, the rows the world took with their source, and the
// sizes learned with theirs. Its schema: doc/report.schema.json.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "decisions/stats.hpp"

namespace mcorecoll {

struct Config;

// The first line of MPI_Get_library_version.
std::string mpi_library_version();

// On the world's rank 0, with the statistics collect_stats() gathered there and the time since
// MPI_Init returned (`job_ns`). A file that cannot be written is a warning.
void write_report(const Config& config, const std::vector<StatsLine>& lines, std::uint64_t job_ns);

}  // namespace mcorecoll
