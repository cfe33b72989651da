#include "route.hpp"

namespace mcorecoll {
namespace {

// Reasons are static strings: routing runs on every call and must not allocate.
constexpr const char* kForcedPmpi[kCollectiveCount] = {
    "MCORECOLL_BARRIER=pmpi", "MCORECOLL_BCAST=pmpi", "MCORECOLL_ALLTOALL=pmpi"};
constexpr const char* kNoAlgorithm[kCollectiveCount] = {
    "no shared-memory barrier in this version of mcorecoll",
    "no shared-memory bcast in this version of mcorecoll",
    "no shared-memory alltoall in this version of mcorecoll"};
constexpr const char* kAboveMax[kCollectiveCount] = {
    "", "bcast message above MCORECOLL_BCAST_MAX_BYTES",
    "alltoall block above MCORECOLL_ALLTOALL_MAX_BYTES"};

}  // namespace

Route choose_route(Collective c, const Config& config, std::uint64_t bytes, bool spans_nodes) {
  const int i = static_cast<int>(c);
  if (config.disable) return {0, "MCORECOLL_DISABLE is set"};
  const int forced = config.forced_path[i];
  if (forced == 0) return {0, kForcedPmpi[i]};
  if (forced > 0) return {forced, ""};
  if (algorithm_names(c).empty()) return {0, kNoAlgorithm[i]};
  if (c == Collective::barrier) return {1, ""};
  if (bytes > config.max_bytes[i]) return {0, kAboveMax[i]};
  if (c == Collective::alltoall && spans_nodes && bytes > config.alltoall_nodes_max_bytes)
    return {0, "alltoall across nodes with blocks above MCORECOLL_ALLTOALL_NODES_MAX_BYTES"};
  if (c == Collective::bcast && bytes >= config.bcast_cma_min_bytes) return {kBcastCma, ""};
  if (c == Collective::alltoall && !spans_nodes && bytes >= config.alltoall_cma_min_bytes)
    return {kAlltoallCma, ""};
  return {1, ""};
}

}  // namespace mcorecoll
