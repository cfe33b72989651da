// The lanes of a communicator that spans nodes: the ranks of equal node rank, one a node. The
// collectives through them (reduce_lanes.hpp, bcast_lanes.hpp, allgather_lanes.hpp,
// reduce_scatter_lanes.hpp) give each of a node's ranks a slice of the message to carry across
// the network in the MPI library's own collective on its lane, every lane at once, and do the
// rest inside the node in shared memory; each is written once as rounds of the across-nodes
// driver (progress/across_nodes_phases.hpp), in every form. On nodes of different sizes there
// are as many lanes as the emptiest node has ranks (CommContext::lanes): the reductions and the
// bcast cut the message into that many slices, and a fuller node's ranks past the lanes carry
// none across the network (they take part in the node phases); the allgather and the
// reduce-scatters, whose slices are the ranks' own blocks, need nodes of equal size.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <optional>

#include "allgather/allgather_shm.hpp"
#include "decisions/collective.hpp"
#include "exchange/staged_exchange.hpp"
#include "progress/leader_messages.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// Why no call of collective `c` on `ctx` can take the lanes (null: it can); equal on every rank.
// `blocking`: the call's form. The other forms need the lanes' communicator made already: a
// non-blocking call may not make one. It is made by every rank (at the set-up where the
// settings send calls to the lanes, or at the first blocking call through them), so whether it
// is made is equal on every rank too.
const char* lanes_refusal(const CommContext& ctx, Collective c, bool blocking);

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

// The last node phase of the reductions' and the bcast's lanes: the ctx.lanes slices of `per`
// bytes each, slice r at slices + r x per (padded: the room holds lanes x per), from node rank
// r to every rank of the node. Where every node rank has a lane, the node's allgather
// (AllgatherRounds); on a node fuller than the emptiest, the staged exchange, in which the
// ranks past the lanes take the slices and give none. Resumable: advance() as the rounds'.
class SlicesGather {
 public:
  SlicesGather(CommContext& ctx, const Config& config, char* slices, std::uint64_t per);
  bool advance(int* waiting_on) { return every_ ? every_->advance(waiting_on) : some_->advance(waiting_on); }
  std::uint64_t moves() const { return every_ ? every_->moves() : some_->moves(); }

 private:
  std::optional<AllgatherRounds> every_;
  std::optional<ExchangeRounds> some_;
};

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
