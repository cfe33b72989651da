// The leaders' part of the allgathers across nodes (allgather_across_nodes.hpp,
// allgatherv_across_nodes.hpp): every node's bytes to every leader, node k's counts[k] bytes at
// displs[k] of one buffer. Up to MCORECOLL_LEADERS_DIRECT_MAX_NODES nodes each leader sends its
// node's bytes to every other leader, one message each, all posted at once (one network
// latency, leader_messages.hpp); beyond, the MPI library's allgatherv among the leaders, in place.
#pragma once

#include <mpi.h>

#include <vector>

#include "progress/leader_messages.hpp"

namespace mcorecoll {

class CommContext;

class LeadersAllgather {
 public:
  // `direct`: leaders_direct() for the communicator; `blocking`: may wait (the blocking forms).
  LeadersAllgather(bool direct, bool blocking) : direct_(direct), blocking_(blocking) {}
  // Does what it can; true once the exchange is over, with its error code in *rc. The caller
  // calls it only where MPI may be called.
  bool step(const CommContext& ctx, char* all, const std::vector<int>& counts, const std::vector<int>& displs,
            int* rc);

 private:
  bool direct_, blocking_, posted_ = false;
  LeaderMessages messages_;
};

}  // namespace mcorecoll
