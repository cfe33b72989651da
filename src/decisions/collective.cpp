#include "decisions/collective.hpp"

#include <cctype>

namespace mcorecoll {

const char* collective_name(Collective c) {
#define MCORECOLL_NAME(name, node_only) #name,
  static constexpr const char* kNames[kCollectiveCount] = {MCORECOLL_ROUTED_COLLECTIVES(MCORECOLL_NAME)};
#undef MCORECOLL_NAME
  const int i = static_cast<int>(c);
  return i >= 0 && i < kCollectiveCount ? kNames[i] : "?";
}

std::string setting_name(Collective c) {
  std::string name = collective_name(c);
  for (char& ch : name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return name;
}

const std::vector<std::string>& algorithm_names(Collective c) {
  // The order is the paths' numbers (decisions/route.hpp, decisions/node_algorithms.hpp). "shm"
  // names the node's choice among a collective's node algorithms (across nodes the composition
  // of node and leaders' phases), or a collective's one staged algorithm (the node-only
  // collectives, the reduce-scatters' staged allreduce). Bcast's are the ring of shared cells
  // (ring) and single copy by Cross Memory Attach (cma); alltoall's the staging areas (staged)
  // and single copy. Bcast, allreduce, reduce, allgather and the reduce-scatters across nodes
  // also have the lanes.
  static const std::vector<std::string> staging = {"shm"};
  static const std::vector<std::string> reductions = {"shm", "lanes", "lines", "tree", "fold", "slices"};
  static const std::vector<std::string> allgather = {"shm", "lanes", "lines", "groups", "staged"};
  static const std::vector<std::string> barrier = {"shm", "poll", "tree"};
  static const std::vector<std::string> scans = {"shm", "lines", "staged"};
  static const std::vector<std::string> staging_or_single_copy = {"staged", "cma"};
  static const std::vector<std::string> staging_or_lanes = {"shm", "lanes"};
  static const std::vector<std::string> ring_single_copy_or_lanes = {"ring", "cma", "lanes"};
  if (c == Collective::allreduce || c == Collective::reduce) return reductions;
  if (c == Collective::allgather) return allgather;
  if (c == Collective::barrier) return barrier;
  if (c == Collective::scan || c == Collective::exscan) return scans;
  if (c == Collective::reduce_scatter_block || c == Collective::reduce_scatter) return staging_or_lanes;
  if (c == Collective::bcast) return ring_single_copy_or_lanes;
  return c == Collective::alltoall ? staging_or_single_copy : staging;
}

std::string path_name(Collective c, int path) {
  return path == kPmpiPath ? "pmpi" : algorithm_names(c).at(static_cast<std::size_t>(path - 1));
}

int path_index(Collective c, const std::string& name) {
  if (name == "pmpi") return kPmpiPath;
  const auto& names = algorithm_names(c);
  for (std::size_t k = 0; k < names.size(); ++k)
    if (names[k] == name) return static_cast<int>(k) + 1;
  return name == "shm" && !names.empty() ? 1 : -1;
}

}  // namespace mcorecoll
