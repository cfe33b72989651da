// The intercepted collectives and the paths a call can take.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace mcorecoll {

enum class Collective {
  barrier, bcast, alltoall, allreduce, reduce, allgather,
  // Inside one node only; across nodes the MPI library's, and the non-blocking forms of
  // alltoallv, gatherv and scatterv (doc/design/node-only-collectives.md).
  alltoallv, allgatherv, gather, gatherv, scatter, scatterv, reduce_scatter_block, reduce_scatter, scan, exscan
};
constexpr int kCollectiveCount = 16;
constexpr std::array<Collective, kCollectiveCount> kAllCollectives = {
    Collective::barrier,   Collective::bcast,      Collective::alltoall, Collective::allreduce,
    Collective::reduce,    Collective::allgather,  Collective::alltoallv, Collective::allgatherv,
    Collective::gather,    Collective::gatherv,    Collective::scatter,  Collective::scatterv,
    Collective::reduce_scatter_block, Collective::reduce_scatter, Collective::scan, Collective::exscan};

// The collectives that take the node machinery only inside one node, blocking (issue #31's).
inline bool node_only(Collective c) { return static_cast<int>(c) >= static_cast<int>(Collective::alltoallv); }

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
