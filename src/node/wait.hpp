// Waiting on a shared flag. While the rank's core is its own, a wait spins as the MPI library's
// own waits do, for up to MCORECOLL_SPIN_US: a yield would hand the core to whatever else is
// runnable there (a daemon, a neighbour's job), and the peer's answer would then wait for a
// time slice. Only a wait that grows long, or any wait where the node's ranks outnumber its
// CPUs, yields, then sleeps in short naps. Every few thousand polls the MPI library gets to
// progress, so that traffic another rank waits on inside its own collective moves.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>

#include "node/node_shm.hpp"
#include "node/spin.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// The progress engine's operations, which a waiting rank keeps moving (a peer may wait for
// them before it comes to this call): whether any is queued, and a round of their steps.
// progress/ sits above node/ and registers them; until it does, nothing is pending.
void set_wait_progress(bool (*pending)(), void (*step)());

class Waiter {
 public:
  // `spin_polls`: polls before the first yield. `progress_comm`: a communicator to probe on
  // for progress (a probe matches nothing away: it only lets the MPI library progress).
  Waiter(int spin_polls, MPI_Comm progress_comm)
      : spin_polls_(spin_polls), progress_comm_(progress_comm) {}

  // The waiter of a communicator's algorithms: MCORECOLL_SPIN_US of spinning, none when its
  // node is oversubscribed; progress probed on the communicator itself.
  static Waiter for_context(const CommContext& ctx, const Config& config);

  int spin_polls() const { return spin_polls_; }

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

// A step's look at node rank `rank`'s `flag`: true once it has reached `target`. With a waiter
// (a blocking form runs the step) it waits for it right here, as a plain wait does: a wait that
// ends inside the step goes straight on, where a step that returned would first have to be
// resumed, on the critical path of every hand-off. Without one (an operation of the progress
// engine) it says whom the step waits for and returns false.
inline bool arrived(Waiter* waiter, const std::atomic<std::uint64_t>& flag, std::uint64_t target, int rank,
                    int* waiting_on) {
  if (reached(flag.load(std::memory_order_acquire), target)) return true;
  if (!waiter) {
    *waiting_on = rank;
    return false;
  }
  waiter->wait_for(flag, target);
  return true;
}

// Resumable rounds to the end, waiting politely between steps (the blocking forms): `step()`
// is true once the rounds are over; `moves()` counts what they have done, and after a step that
// moved something the wait starts anew, spinning first (a long call waits many times, each
// one short).
template <typename Step, typename Moves>
void run_rounds(Waiter& waiter, Step step, Moves moves) {
  unsigned polls = 0;
  for (std::uint64_t moved = moves(); !step();) {
    if (moves() != moved) moved = moves(), polls = 0;
    waiter.backoff(polls);
  }
}

}  // namespace mcorecoll
