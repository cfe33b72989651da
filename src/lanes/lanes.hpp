// The lanes of a communicator that spans nodes: the ranks of equal node rank, one a node. The
// collectives through them (reduce_lanes.hpp, bcast_lanes.hpp, allgather_lanes.hpp,
// reduce_scatter_lanes.hpp) give each of a node's ranks a slice of the message to carry across
// the network in the MPI library's own collective on its lane, every lane at once, and do the
// rest inside the node in shared memory; each is written once as rounds of the across-nodes
// driver (progress/across_nodes_phases.hpp), in every form.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "progress/leader_messages.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// Why no call on `ctx` can take the lanes (null: it can); equal on every rank. `blocking`: the
// call's form. The other forms need the lanes' communicator made already: a non-blocking call
// may not make one. It is made by every rank (at the set-up where the settings send calls to
// the lanes, or at the first blocking call through them), so whether it is there is equal on
// every rank too.
const char* lanes_refusal(const CommContext& ctx, bool blocking);

// The lanes' communicator, made by the set-up (node/comm_context.cpp) or by the first blocking
// call that takes the lanes: every rank of the communicator is in that call (decided alike on
// every rank), and the set-up found that communicators may be made here. This rank's rank in it
// is its node's index.
MPI_Comm lanes_of(CommContext& ctx);

// Node rank `r`'s slice of `total` units split over `n` ranks: from `first`, `count` of them
// (the last ones may be short or empty); `per`: every slice's room.
struct Slice {
  std::uint64_t per, first, count;
};
Slice slice_of(std::uint64_t total, int n, int r);

// The lane's collective of the MPI library, the rounds' middle phase: in the blocking forms
// `call()` to its end; in the others `post(&request)` at the first step and the request tested
// at each. step() is true once it is over, its error in *rc unless *rc holds one already.
class LaneCall {
 public:
  // True at the first step only: where a phase counts what it hands the network.
  bool first() { return !begun_ && (begun_ = true); }
  template <typename Call, typename Post>
  bool step(bool blocking, int* rc, Call call, Post post) {
    if (blocking) {
      const int called = call();
      if (*rc == MPI_SUCCESS) *rc = called;
      return true;
    }
    if (!lane_.pending()) lane_.post_library(post);
    return lane_.test(rc);
  }

 private:
  bool begun_ = false;
  LeaderMessages lane_;
};

}  // namespace mcorecoll
