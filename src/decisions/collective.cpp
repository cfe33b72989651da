#include "decisions/collective.hpp"

#include <cctype>

namespace mcorecoll {

const char* collective_name(Collective c) {
  switch (c) {
    case Collective::barrier: return "barrier";
    case Collective::bcast: return "bcast";
    case Collective::alltoall: return "alltoall";
    case Collective::allreduce: return "allreduce";
    case Collective::reduce: return "reduce";
    case Collective::allgather: return "allgather";
    case Collective::alltoallv: return "alltoallv";
    case Collective::allgatherv: return "allgatherv";
    case Collective::gather: return "gather";
    case Collective::gatherv: return "gatherv";
    case Collective::scatter: return "scatter";
    case Collective::scatterv: return "scatterv";
    case Collective::reduce_scatter_block: return "reduce_scatter_block";
    case Collective::reduce_scatter: return "reduce_scatter";
    case Collective::scan: return "scan";
    case Collective::exscan: return "exscan";
  }
  return "?";
}

std::string setting_name(Collective c) {
  std::string name = collective_name(c);
  for (char& ch : name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return name;
}

const std::vector<std::string>& algorithm_names(Collective c) {
  static const std::vector<std::string> barrier = {"shm"};
  static const std::vector<std::string> bcast = {"shm", "cma"};
  static const std::vector<std::string> alltoall = {"shm", "cma"};
  switch (c) {
    case Collective::barrier: return barrier;
    case Collective::bcast: return bcast;
    case Collective::alltoall: return alltoall;
    // Staging (the reductions: contributions staged, combined in rank order; allgather: one
    // block staged for all).
    case Collective::allreduce:
    case Collective::reduce:
    case Collective::allgather: return barrier;
    default: return barrier;  // the node-only collectives: staging
  }
  return barrier;
}

}  // namespace mcorecoll
