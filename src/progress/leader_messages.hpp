// Messages among node leaders for the collectives across nodes, and the requests of the MPI
// library's collectives among them where those are used instead. With few nodes,
// one message from each leader to each other that needs it, all posted at once, arrives in
// one network latency and needs no further progress call; the MPI library's non-blocking
// collectives (Open MPI's libnbc) take rounds, each moved on only by a progress call of the
// rank's. Measured on the multi-host bed: doc/multi-host.md.
//
// Operations of one communicator take steps in the order every rank starts them
// (progress.hpp), and a leader sends to another exactly when that one receives from it, so
// the standard's ordering of messages between two ranks on one communicator and tag matches
// each message to its own operation.
#pragma once

#include <mpi.h>

#include <vector>

namespace mcorecoll {

class CommContext;
struct Config;

// Whether the leaders of `ctx` exchange messages directly (up to MCORECOLL_LEADERS_DIRECT_MAX_NODES
// nodes); beyond, the MPI library's collective among them (its rounds are fewer than the
// messages). Equal on every rank: the node count and the settings are.
bool leaders_direct(const CommContext& ctx, const Config& config);

class LeaderMessages {
 public:
  // Forgets an earlier activation (its requests all complete).
  void clear();
  // Posts a receive from, or a send to, leader `peer` of `comm`. A post that fails is
  // remembered, and the caller goes on posting the others: a peer waits for every message
  // it was promised.
  void receive(void* buffer, int count, MPI_Datatype type, int peer, MPI_Comm comm);
  void send(const void* buffer, int count, MPI_Datatype type, int peer, MPI_Comm comm);
  // A barrier among the `leaders` of `comm`: an empty message from `me` to each other, and
  // one from each other.
  void post_barrier(int me, int leaders, MPI_Comm comm);
  // Posts a non-blocking call of the MPI library (`post` gets the request to fill and returns
  // its error code), tested and waited for with the messages.
  template <typename Post>
  void post_library(Post post) {
    requests_.push_back(MPI_REQUEST_NULL);
    const int posted = post(&requests_.back());
    if (posted != MPI_SUCCESS) requests_.back() = MPI_REQUEST_NULL;
    keep(posted);
  }
  // True once every request posted is complete, or failed (the others then waited for); the
  // first error of the posts and the requests goes to *rc unless it holds one already.
  bool test(int* rc);
  // Waits for every request posted (the blocking forms); returns the first error.
  int wait();
  // Whether something was posted since the last clear() and not yet found complete by test()
  // or waited for by wait().
  bool pending() const { return !requests_.empty(); }

 private:
  void keep(int rc) {
    if (error_ == MPI_SUCCESS) error_ = rc;
  }
  std::vector<MPI_Request> requests_;
  int error_ = MPI_SUCCESS;
};

}  // namespace mcorecoll
