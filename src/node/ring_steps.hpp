// The node's broadcast through the pipelined ring of shared cells (paper section 4.2): node rank
// `source` fills the cells in order, running ahead of the slowest reader by at most a window of
// chunks; the readers copy each chunk out and say so. Written once, as resumable steps
// (NodeRingSteps): the blocking bcast runs them to the end (a reader waiting for its chunk
// inside the step); the non-blocking forms, and the allgather and reductions across nodes,
// which hand out their result this way, take them as their rounds go. Steps call no MPI
// function.
//
// - Readers read in rounds of up to half a window, so that the source fills the next round
//   meanwhile, and say they are done once per round. Inside a round, groups of at most
//   MCORECOLL_BCAST_READERS readers start on different chunks and go round
//   (reader_schedule.hpp), so that no one chunk's lines serve everyone at once.
// - The source looks at a reader's line only when what it already knows is not enough, and
//   then waits for half a window more: looking fetches the reader's line and makes the
//   reader's next store to it wait.
// - A one-chunk message up to MCORECOLL_BCAST_RELAY_MAX_BYTES crosses each group boundary
//   (socket) once: a reader outside the source's group would fetch the cell's lines from the
//   source's socket, so only its group's leader does, and relays the chunk through the relay
//   area of its own page, from which its group reads locally.
#pragma once

#include <cstdint>
#include <vector>

#include "node/call_areas.hpp"
#include "node/reader_schedule.hpp"
#include "node/wait.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// The leader of each node rank's group at the node's coarsest level (sockets; else NUMA
// domains or caches); empty when the node has no such level.
const std::vector<int>& coarsest_leaders(const CommContext& ctx);

// The groups of the readers of `source` (reader_schedule.hpp), from MCORECOLL_BCAST_READERS.
ReaderGroups groups_of_readers(const CommContext& ctx, const Config& config, int source);

class NodeRingSteps {
 public:
  // `waiter`: a blocking form's, with which a reader waits for its chunks where it would stop
  // (wait.hpp's arrived()); none for an operation of the progress engine.
  NodeRingSteps(CommContext& ctx, const Config& config, Waiter* waiter = nullptr)
      : ctx_(ctx), config_(config), waiter_(waiter) {}
  // The next step begins a new phase (a new message, or the next activation).
  void reset() { started_ = false; }
  // Node rank `source` hands `size` bytes at `data` to every other rank of its node. True once
  // this rank's part is over; else *waiting_on names the node rank it waits for.
  bool step(char* data, std::uint64_t size, int source, int* waiting_on);
  // Chunks this rank has filled or copied out so far, over every phase.
  std::uint64_t moves() const { return moves_; }

 private:
  bool start(std::uint64_t size, int source, int* waiting_on);
  bool source_step(const char* data, std::uint64_t size, int source, int* waiting_on);
  bool reader_step(char* data, std::uint64_t size, int source, int* waiting_on);
  bool relay_step(char* data, std::uint64_t size, int source, int* waiting_on);
  void copy_chunk(char* to, const char* from, std::uint64_t size, std::uint64_t j);
  int group_leader(int r) const;

  CommContext& ctx_;
  const Config& config_;
  Waiter* waiter_;
  bool started_ = false;
  RingCells ring_{};
  std::uint64_t first_ = 0, chunks_ = 0;
  std::uint64_t next_ = 0;    // source: chunks filled; reader: steps of the current round done
  std::uint64_t begin_ = 0;   // reader: the current round's first chunk
  std::uint64_t round_ = 1;   // reader: chunks per round
  int group_ = 0;             // reader: its group's place in the rotation
  bool relayed_ = false;      // reader: this message comes through the relay areas
  bool have_chunk_ = false;   // relaying leader: it has copied the chunk out
  bool members_ = false;      // relaying leader: its group has other members
  int member_ = 0;            // relaying leader: node ranks before this one have read the last relay
  std::uint64_t moves_ = 0;
};

}  // namespace mcorecoll
