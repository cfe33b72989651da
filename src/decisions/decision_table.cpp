#include "decisions/decision_table.hpp"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "decisions/config.hpp"

namespace mcorecoll {
namespace {

// 4096 -> "4K", 16777216 -> "16M"; other counts in bytes.
std::string short_bytes(std::uint64_t bytes) {
  const char* suffixes = "KMGT";
  int shift = 0;
  while (shift < 4 && bytes != 0 && bytes % 1024 == 0) bytes /= 1024, ++shift;
  return std::to_string(bytes) + (shift ? std::string(1, suffixes[shift - 1]) : "");
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
    const int path = path_index(c, name);
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
