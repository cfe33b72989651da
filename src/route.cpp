#include "route.hpp"

#include <algorithm>

namespace mcorecoll {
namespace {

std::string upper_name(Collective c) {
  std::string s = collective_name(c);
  for (char& ch : s) ch = static_cast<char>(ch - 'a' + 'A');
  return s;
}

}  // namespace

Route choose_route(Collective c, const Config& config, std::uint64_t bytes) {
  const int i = static_cast<int>(c);
  const std::string name = collective_name(c);
  const std::vector<std::string>& algos = algorithm_names(c);
  const std::string& mode = config.mode[i];
  if (config.disable) return {0, "MCORECOLL_DISABLE is set"};
  if (mode == "pmpi") return {0, "MCORECOLL_" + upper_name(c) + "=pmpi"};
  if (mode != "auto") {  // forced algorithm (validated when the settings were loaded)
    const auto at = std::find(algos.begin(), algos.end(), mode);
    return {static_cast<int>(at - algos.begin()) + 1, ""};
  }
  if (algos.empty()) return {0, "no shared-memory " + name + " in this version of mcorecoll"};
  if (c == Collective::barrier) return {1, ""};
  if (bytes > config.max_bytes[i])
    return {0, name + " message above MCORECOLL_" + name + "_MAX_BYTES"};
  return {1, ""};
}

}  // namespace mcorecoll
