// The intercepted collectives and the paths a call can take.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace mcorecoll {

enum class Collective { barrier = 0, bcast = 1, alltoall = 2, allreduce = 3, reduce = 4, allgather = 5 };
constexpr int kCollectiveCount = 6;
constexpr std::array<Collective, kCollectiveCount> kAllCollectives = {
    Collective::barrier, Collective::bcast,  Collective::alltoall,
    Collective::allreduce, Collective::reduce, Collective::allgather};

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

}  // namespace mcorecoll
