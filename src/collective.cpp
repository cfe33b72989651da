#include "collective.hpp"

namespace mcorecoll {

const char* collective_name(Collective c) {
  switch (c) {
    case Collective::barrier: return "barrier";
    case Collective::bcast: return "bcast";
    case Collective::alltoall: return "alltoall";
  }
  return "?";
}

const std::vector<std::string>& algorithm_names(Collective c) {
  static const std::vector<std::string> barrier = {"shm"};
  static const std::vector<std::string> none = {};
  return c == Collective::barrier ? barrier : none;
}

}  // namespace mcorecoll
