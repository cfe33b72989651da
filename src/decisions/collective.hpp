// The routed collectives and the paths a call can take.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "collective_list.hpp"  // generated from wrappers/collectives.txt (src/meson.build)

namespace mcorecoll {

#define MCORECOLL_ENUMERATOR(name, node_only) name,
#define MCORECOLL_ONE(name, node_only) +1
#define MCORECOLL_ELEMENT(name, node_only) Collective::name,
#define MCORECOLL_NODE_ONLY(name, node_only) node_only,

enum class Collective { MCORECOLL_ROUTED_COLLECTIVES(MCORECOLL_ENUMERATOR) };
constexpr int kCollectiveCount = 0 MCORECOLL_ROUTED_COLLECTIVES(MCORECOLL_ONE);
constexpr std::array<Collective, kCollectiveCount> kAllCollectives = {
    MCORECOLL_ROUTED_COLLECTIVES(MCORECOLL_ELEMENT)};

// The collectives that take the node machinery only inside one node, blocking
// (doc/design/node-only-collectives.md; collectives.txt's node-only).
inline bool node_only(Collective c) {
  constexpr bool kNodeOnly[kCollectiveCount] = {MCORECOLL_ROUTED_COLLECTIVES(MCORECOLL_NODE_ONLY)};
  return kNodeOnly[static_cast<int>(c)];
}

#undef MCORECOLL_ENUMERATOR
#undef MCORECOLL_ONE
#undef MCORECOLL_ELEMENT
#undef MCORECOLL_NODE_ONLY

// Lower-case name used in settings and statistics ("barrier", "bcast", "alltoall", ...).
const char* collective_name(Collective c);
// The same in capitals, as in setting names ("BARRIER", "BCAST", "ALLTOALL").
std::string setting_name(Collective c);

// A path is "pmpi" or an algorithm of the collective (see algorithm_names()).
constexpr int kMaxPaths = 8;
constexpr int kPmpiPath = 0;  // path index 0 is pmpi; algorithm k is path k + 1

// Names of the shared-memory algorithms of one collective, in the order the router prefers
// them for growing sizes. "pmpi" is not one of them: it is always available.
const std::vector<std::string>& algorithm_names(Collective c);
// A path's name: "pmpi", or its algorithm's.
std::string path_name(Collective c, int path);
// The path a name gives (a setting, a row, a learned file): 0 for "pmpi", k + 1 for
// algorithm_names(c)[k], and for "shm" the collective's first algorithm, which is what the
// name meant before bcast's and alltoall's were named (ring, staged): files and settings
// written then keep working. -1: not a path of `c`.
int path_index(Collective c, const std::string& name);

}  // namespace mcorecoll
