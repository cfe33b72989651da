#include "entry/job_report.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "common/log.hpp"
#include "decisions/config.hpp"
#include "decisions/learned_file.hpp"
#include "decisions/learning.hpp"
#include "entry/learning.hpp"
#include "entry/runtime.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (unsigned char ch : text) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += static_cast<char>(ch);
    } else if (ch < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", ch);
      out += escape;
    } else {
      out += static_cast<char>(ch);
    }
  }
  return out + "\"";
}

std::string number(double x) {
  char text[64];
  std::snprintf(text, sizeof text, "%.3f", x);
  return text;
}

// "[1.200, 0.800]": a JSON array of times.
std::string numbers(const std::vector<double>& xs) {
  std::string out = "[";
  for (std::size_t i = 0; i < xs.size(); ++i) out += (i ? ", " : "") + number(xs[i]);
  return out + "]";
}

const char* kind_name(CallKind kind) {
  return kind == CallKind::nonblocking ? "non-blocking" : kind == CallKind::persistent ? "persistent" : "blocking";
}

// Where a row comes from, in one word: "table" (built in), "tuned" (a tuning file), "environment".
const char* row_origin(const std::string& source) {
  if (source.rfind("set in the environment", 0) == 0) return "environment";
  if (source.rfind("set in the tuning file", 0) == 0) return "tuned";
  return "table";
}

std::string size_classes(std::uint64_t mask) {
  std::string out = "[";
  for (int k = 0; k < 64; ++k)
    if (mask >> k & 1) out += (out.size() > 1 ? ", " : "") + quoted(k == 63 ? "4E and more" : class_name(k));
  return out + "]";
}

// "NAME = value" lines (Config::describe()) as an object; the rows are reported apart.
std::string settings_object(const Config& config) {
  std::istringstream in(config.describe());
  std::string out = "{", line;
  while (std::getline(in, line)) {
    const std::size_t eq = line.find(" = ");
    if (eq == std::string::npos || line.find("_PATHS_NP") != std::string::npos) continue;
    std::string value = line.substr(eq + 3);
    out += (out.size() > 1 ? ",\n      " : "\n      ") + quoted(line.substr(0, eq)) + ": " + quoted(value);
  }
  return out + "\n    }";
}

}  // namespace

std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  PMPI_Get_library_version(text, &length);
  std::string line(text, static_cast<std::size_t>(std::max(0, std::min(length, MPI_MAX_LIBRARY_VERSION_STRING))));
  line = line.substr(0, line.find('\n'));
  while (!line.empty() && (line.back() == ' ' || line.back() == '\r' || line.back() == '\0' || line.back() == '\t'))
    line.pop_back();
  return line;
}

void write_report(const Config& config, const std::vector<StatsLine>& lines, std::uint64_t job_ns) {
  int ranks = 0;
  PMPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const CommContext* world = prepared_world();
  const double job_us = static_cast<double>(job_ns) / 1e3;
  std::ostringstream out;
  out << "{\n  \"format\": \"mcorecoll-report/1\",\n  \"job\": {\n";
  out << "    \"ranks\": " << ranks << ",\n";
  if (world) {
    int fullest = 0, emptiest = ranks;
    for (const std::vector<int>& members : world->node_members) {
      fullest = std::max(fullest, static_cast<int>(members.size()));
      emptiest = std::min(emptiest, static_cast<int>(members.size()));
    }
    out << "    \"nodes\": " << world->node_count << ",\n";
    out << "    \"ranks_per_node\": {\"least\": " << emptiest << ", \"most\": " << fullest << "},\n";
    out << "    \"node\": " << quoted(world->topology_or_stop(config).shape()) << ",\n";
  } else {
    out << "    \"nodes\": null,\n    \"ranks_per_node\": null,\n    \"node\": null,\n";
  }
  out << "    \"mpi\": " << quoted(mpi_library_version()) << ",\n";
  out << "    \"mcorecoll\": " << quoted(MCORECOLL_VERSION) << ",\n";
  out << "    \"time_us\": " << number(job_us) << ",\n";
  out << "    \"settings\": " << settings_object(config) << "\n  },\n";

  // The worst first: the most time per rank.
  std::vector<const StatsLine*> order;
  for (const StatsLine& l : lines) order.push_back(&l);
  std::stable_sort(order.begin(), order.end(),
                   [](const StatsLine* a, const StatsLine* b) { return a->ns_sum > b->ns_sum; });
  out << "  \"collectives\": [";
  for (std::size_t i = 0; i < order.size(); ++i) {
    const StatsLine& l = *order[i];
    const double mean_us = static_cast<double>(l.ns_sum) / 1e3 / std::max(1, ranks);
    out << (i ? ",\n" : "\n") << "    {\"form\": " << quoted(l.form) << ", \"collective\": " << quoted(l.collective)
        << ", \"kind\": " << quoted(kind_name(l.kind)) << ", \"path\": " << quoted(l.path)
        << ", \"forwarded\": " << (l.forwarded ? "true" : "false") << ",\n     \"calls\": " << l.calls
        << ", \"bytes\": " << l.bytes << ",\n     \"time_us\": {\"least\": "
        << number(static_cast<double>(l.ns_least_rank) / 1e3) << ", \"mean\": " << number(mean_us)
        << ", \"most\": " << number(static_cast<double>(l.ns_most_rank) / 1e3)
        << ", \"sum\": " << number(static_cast<double>(l.ns_sum) / 1e3) << "},\n     \"share_of_job\": "
        << (job_us > 0 ? std::to_string(mean_us / job_us) : "0") << ", \"size_classes\": " << size_classes(l.size_classes)
        << "}";
  }
  out << "\n  ],\n";

  out << "  \"rows\": [";
  bool first = true;
  if (world && world->pmpi_reason.empty())
    for (Collective c : kAllCollectives) {
      const TableRow* row = world->table_rows[static_cast<int>(c)];
      if (!row || config.bounds_set[static_cast<int>(c)]) continue;
      out << (first ? "\n" : ",\n") << "    {\"collective\": " << quoted(collective_name(c))
          << ", \"setting\": " << quoted("MCORECOLL_" + row_setting_name(c, row->ranks, row->oversubscribed))
          << ", \"bands\": " << quoted(format_bands(c, row->bands)) << ", \"origin\": " << quoted(row_origin(row->source))
          << ",\n     \"source\": " << quoted(row->source) << "}";
      first = false;
    }
  out << "\n  ],\n";

  out << "  \"learned\": [";
  first = true;
  for (const KnownSize& k : known_sizes()) {
    const LearnedSize& s = k.size;
    out << (first ? "\n" : ",\n") << "    {\"collective\": " << quoted(collective_name(s.collective))
        << ", \"ranks\": " << s.ranks << ", \"nodes\": " << s.nodes << ", \"node_ranks\": " << s.node_ranks
        << ", \"sizes\": " << quoted(class_name(s.size_class)) << ",\n     \"row\": " << quoted(s.row)
        << ", \"other\": " << quoted(others_text(s)) << ", \"path\": " << quoted(s.path)
        << ", \"origin\": " << quoted(k.from_file ? "learned file" : "learned in this run") << ",\n     \"mean_us\": "
        << numbers(s.mean_us) << ", \"slowest_us\": " << numbers(s.slowest_us)
        << ",\n     \"calls\": {\"explored\": " << k.explored
        << ", \"after\": " << k.after << "}}";
    first = false;
  }
  out << "\n  ]\n}\n";

  std::string error;
  if (!write_whole(config.report, out.str(), &error))
    say("warning: the job's report (MCORECOLL_REPORT) is not written: " + error);
  else if (config.verbose >= 1)
    say("the job's report is written to '" + config.report + "'");
}

}  // namespace mcorecoll
