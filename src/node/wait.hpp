// Waiting on a shared flag without melting a core: spin briefly (not at all when the node is
// oversubscribed), then yield, then sleep in short naps; every few thousand polls let the MPI
// library progress, so that traffic another rank waits on inside its own collective moves.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>

#include "node/node_shm.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// One step of backing off: spin `spin_polls` polls, then yield, then nap. `polls` counts the
// steps of the current wait (from 0). Returns how many steps were past the spinning (0 while
// spinning).
unsigned pause_once(unsigned& polls, unsigned spin_polls);

class Waiter {
 public:
  // `spin_polls`: polls before the first yield. `progress_comm`: a communicator to probe on
  // for progress (a probe matches nothing away: it only lets the MPI library progress).
  Waiter(int spin_polls, MPI_Comm progress_comm)
      : spin_polls_(spin_polls), progress_comm_(progress_comm) {}

  // The waiter of a communicator's algorithms: no spinning when its node is oversubscribed,
  // progress probed on the communicator itself.
  static Waiter for_context(const CommContext& ctx, const Config& config);

  void wait_for(const std::atomic<std::uint64_t>& flag, std::uint64_t target) {
    if (reached(flag.load(std::memory_order_acquire), target)) return;
    wait_slow(flag, target);
  }

  // One step of backing off, for a loop that polls several conditions at once: spin, then
  // yield, then nap, as wait_for does. `polls` counts the steps of the current wait (from 0).
  void backoff(unsigned& polls);

 private:
  void wait_slow(const std::atomic<std::uint64_t>& flag, std::uint64_t target);
  int spin_polls_;
  MPI_Comm progress_comm_;
};

}  // namespace mcorecoll
