// The shared-memory MPI_Bcast (paper section 4.2): inside a node, copy-in/copy-out through the
// pipelined ring of shared cells (node/ring_steps.hpp; a message of up to 120 bytes travels in
// a one-line slot with its flag), or a single copy where every reader pulls straight from the
// source's buffer with Cross Memory Attach, groups of readers starting on different parts
// (node/reader_schedule.hpp). Across nodes, node leaders broadcast on the leaders'
// communicator, the root's node first, segment by segment for large messages.
//
// Written once, as resumable rounds (BcastRounds): the blocking bcast waits between steps, the
// non-blocking and persistent ones (ibcast_shm.hpp) take them as the progress engine gives
// them, so every form has the same ring, relay, reader groups and segments.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "node/ring_steps.hpp"
#include "progress/leader_messages.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

class BcastRounds {
 public:
  // `data`: the message's `bytes` bytes in signature order (the root's packed, the others' to
  // be unpacked). `single_copy`: use Cross Memory Attach (the caller has probed that the node
  // allows it). `blocking`: the leaders' broadcast may wait (PMPI_Bcast; else PMPI_Ibcast).
  BcastRounds(CommContext& ctx, const Config& config, char* data, std::uint64_t bytes, int root,
              bool single_copy, bool blocking);
  // Does what it can without waiting; true once this rank's part is over (then rc is final).
  // Where it waits for a node rank, *waiting_on says which; it stops where it would call MPI
  // unless `may_call_mpi`.
  bool advance(bool may_call_mpi, int* waiting_on);
  // What this rank has done so far (run_rounds, node/wait.hpp).
  std::uint64_t moves() const { return ring_.moves() + offset_ + phase_; }
  int rc = MPI_SUCCESS;

 private:
  // What this rank does for each segment, in order: move it inside its node from node rank
  // `source`, or (a node leader) take part in the leaders' broadcast from node `source`.
  struct Phase {
    enum Kind { node, leaders } kind = node;
    int source = 0;
  };
  bool single_copy_step(char* data, std::uint64_t size, int source, int* waiting_on);
  bool leaders_step(char* data, std::uint64_t size, int root_node);
  void keep(int error) {
    if (rc == MPI_SUCCESS) rc = error;
  }

  CommContext& ctx_;
  const Config& config_;
  char* data_;
  std::uint64_t bytes_, segment_;
  bool single_copy_, blocking_;
  Phase phases_[3] = {};
  std::size_t phase_count_ = 0, phase_ = 0;
  std::uint64_t offset_ = 0;  // the current segment's
  bool started_ = false;      // the current phase has taken its first step
  NodeRingSteps ring_;
  std::uint64_t seq_ = 0;
  int next_ = 0;  // single copy's source: readers before this node rank are done
  LeaderMessages leaders_;
};

// `bytes`: the signature size (same on every rank). Returns an MPI error code.
int bcast_shm(CommContext& ctx, const Config& config, void* buffer, int count,
              MPI_Datatype datatype, int root, std::uint64_t bytes, bool single_copy);

}  // namespace mcorecoll
