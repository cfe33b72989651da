// The one driver of the collectives across nodes that run as three phases: inside each node
// (`node_step`), among the node leaders (`leaders_step`, node leaders only; it calls MPI), and
// from each leader to its node (`hand_out_step`). A collective's rounds derive from it and
// give the three steps; advance() runs them in order, resuming where the last call stopped, in
// the blocking forms (with a waiter between calls) and the others (as the progress engine gives
// steps) alike. After an error a phase still runs the later ones, so that no rank waits for
// ever; the error is kept where it happened.
//
// Each step: does what it can without waiting, true once its phase is over for this rank;
// where it waits for a node rank, *waiting_on says which; it stops before any MPI call unless
// `may_call_mpi`.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "node/wait.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

template <typename Rounds>
class AcrossNodesPhases {
 public:
  // True once this rank's part is over (then rc is final).
  bool advance(bool may_call_mpi, int* waiting_on) {
    Rounds& self = static_cast<Rounds&>(*this);
    if (phase_ == Phase::node) {
      if (!self.node_step(may_call_mpi, waiting_on)) return false;
      phase_ = leader_ ? Phase::leaders : Phase::hand_out;
    }
    if (phase_ == Phase::leaders) {
      if (!may_call_mpi || !self.leaders_step()) return false;
      phase_ = Phase::hand_out;
    }
    if (phase_ == Phase::hand_out) {
      if (!self.hand_out_step(may_call_mpi, waiting_on)) return false;
      phase_ = Phase::done;
    }
    return true;
  }
  // The blocking forms: every phase to the end, waiting politely between steps; returns rc.
  int run_to_end(const CommContext& ctx, const Config& config) {
    Rounds& self = static_cast<Rounds&>(*this);
    Waiter waiter = Waiter::for_context(ctx, config);
    int waiting_on = -1;
    run_rounds(waiter, [&] { return advance(true, &waiting_on); }, [&] { return self.moves(); });
    return rc;
  }
  int rc = MPI_SUCCESS;

 protected:
  // `leader`: this rank leads its node in the leaders' phase.
  explicit AcrossNodesPhases(bool leader) : leader_(leader) {}
  bool leader() const { return leader_; }
  // An activation with nothing to move: over at once.
  void nothing_to_do() { phase_ = Phase::done; }
  // How far the phases are, for the rounds' moves() (run_rounds, node/wait.hpp).
  std::uint64_t phases_moved() const { return static_cast<std::uint64_t>(phase_); }
  void keep(int error) {
    if (rc == MPI_SUCCESS) rc = error;
  }

 private:
  enum class Phase { node, leaders, hand_out, done };
  bool leader_;
  Phase phase_ = Phase::node;
};

}  // namespace mcorecoll
