// The node phase of a bcast through the ring, as resumable steps: what node_bcast_bytes()
// (bcast/bcast_shm.hpp) does waiting, for the operations of the progress engine (the non-blocking
// bcast, and the non-blocking reductions and allgather across nodes, which hand out their
// result this way). The source fills as many cells as its readers have freed and returns;
// readers copy out the chunks that are there, in order. Steps call no MPI function.
#pragma once

#include <cstdint>

#include "node/call_areas.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

class NodeRingSteps {
 public:
  NodeRingSteps(CommContext& ctx, const Config& config) : ctx_(ctx), config_(config) {}
  // The next step begins a new phase (a new message, or the next activation).
  void reset() { started_ = false; }
  // Node rank `source` hands `size` bytes at `data` to every other rank of its node. True once
  // this rank's part is over; else *waiting_on names the node rank it waits for.
  bool step(char* data, std::uint64_t size, int source, int* waiting_on);

 private:
  bool start(std::uint64_t size, int* waiting_on);
  bool source_step(const char* data, std::uint64_t size, int source, int* waiting_on);
  bool reader_step(char* data, std::uint64_t size, int source, int* waiting_on);
  void copy_chunk(char* to, const char* from, std::uint64_t size, std::uint64_t j) const;

  CommContext& ctx_;
  const Config& config_;
  bool started_ = false;
  RingCells ring_{};
  std::uint64_t first_ = 0, chunks_ = 0, next_ = 0;
};

}  // namespace mcorecoll
