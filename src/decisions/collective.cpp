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
  // Staging (the barrier's flags, the reductions' contributions combined in rank order, the
  // allgather's one block for all, the node-only collectives' exchange), for bcast and
  // alltoall also single copy (Cross Memory Attach), for bcast, allreduce, reduce, allgather and
  // the reduce-scatters across nodes also the lanes. Allreduce and reduce name their node
  // algorithms too (route.hpp: kReductionLines ...), "shm" being the node's choice among them.
  static const std::vector<std::string> staging = {"shm"};
  static const std::vector<std::string> reductions = {"shm", "lanes", "lines", "tree", "fold", "slices"};
  static const std::vector<std::string> staging_or_single_copy = {"shm", "cma"};
  static const std::vector<std::string> staging_or_lanes = {"shm", "lanes"};
  static const std::vector<std::string> ring_single_copy_or_lanes = {"shm", "cma", "lanes"};
  if (c == Collective::allreduce || c == Collective::reduce) return reductions;
  if (c == Collective::allgather ||
      c == Collective::reduce_scatter_block || c == Collective::reduce_scatter)
    return staging_or_lanes;
  if (c == Collective::bcast) return ring_single_copy_or_lanes;
  return c == Collective::alltoall ? staging_or_single_copy : staging;
}

std::string path_name(Collective c, int path) {
  return path == kPmpiPath ? "pmpi" : algorithm_names(c).at(static_cast<std::size_t>(path - 1));
}

}  // namespace mcorecoll
