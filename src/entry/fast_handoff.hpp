// The hand-off of a call that its communicator gives to the MPI library by its size alone
// (CommContext::pmpi_below). A blocking call given there at every size: the generated entry
// point asks before anything else and calls PMPI_X at once. Other sizes: decide() asks first.
// Deciding in full costs 250-430 instructions a call (bench/handoff); this a dozen, so that a
// collective mcorecoll leaves alone costs about what the MPI library's does.
//
// Each rank takes the fast way or the full decision by its own state (the last communicator it
// used, whether operations of its own are pending), so the two must take the same steps: the
// full decision of a call that goes to PMPI does nothing collective (decide() settles the
// collectives inside one node across nodes before it would make the node's shared memory).
// A rank that made the node's memory alone waited for the others for good (seed 9105 of the
// sequence tester across nodes: sequence-handed-on-nodes).
#pragma once

#include <mpi.h>

#include <cstdint>

#include "decisions/collective.hpp"
#include "decisions/learning.hpp"
#include "decisions/route.hpp"
#include "progress/progress.hpp"

namespace mcorecoll {

class CommContext;

// The communicator of the last collective, its context and the context's pmpi_below, side by
// side in one cache line (runtime.cpp keeps them). Only below MPI_THREAD_MULTIPLE, where one
// thread at a time is inside MPI; elsewhere `comm` stays MPI_COMM_NULL. The delete callback
// clears it, so a handle that MPI reuses after a free never finds a stale context.
struct LastCommunicator {
  MPI_Comm comm;
  CommContext* ctx;
  const std::uint64_t* pmpi_below;  // never null (zeros before any context)
  // Per collective, a bit per size class that learned the MPI library's path in this run
  // (CommContext::learned_pmpi; entry/learning.hpp); never null.
  const std::uint64_t* learned_pmpi;
  int rank;  // in `comm`
};

// A call of `bytes` that the communicator gives to PMPI by its size: below its rows' first
// band, or in a size class that learned PMPI.
inline bool given_to_pmpi(const LastCommunicator& last, Collective c, std::uint64_t bytes) {
  return bytes < last.pmpi_below[static_cast<int>(c)] ||
         (last.learned_pmpi[static_cast<int>(c)] >> size_class(bytes) & 1) != 0;
}
extern LastCommunicator g_last_communicator;

// The generated entry points: a blocking call its communicator gives to PMPI at every size.
inline bool hand_on_at_once(Collective c, MPI_Comm comm) {
  const LastCommunicator& last = g_last_communicator;
  return comm == last.comm && comm != MPI_COMM_NULL && last.pmpi_below[static_cast<int>(c)] == kEverySize &&
         engine_idle();
}

// Signature bytes (call_decision.hpp), here for the sized hand-off below.
bool signature_bytes(int count, MPI_Datatype type, std::uint64_t* bytes);

// The generated entry points of the collectives whose size wrappers/collectives.txt gives
// (size=): a blocking call of `count` elements of `type`, the bytes its route passes to
// decide(), that its communicator gives to PMPI by size. The rooted ones size a call from the
// root's side at the root (with MPI_IN_PLACE the other side means nothing there).
inline bool hand_on_sized(Collective c, MPI_Comm comm, int count, MPI_Datatype type) {
  const LastCommunicator& last = g_last_communicator;
  std::uint64_t bytes = 0;
  return comm == last.comm && comm != MPI_COMM_NULL &&
         (last.pmpi_below[static_cast<int>(c)] != 0 || last.learned_pmpi[static_cast<int>(c)] != 0) &&
         signature_bytes(count, type, &bytes) && given_to_pmpi(last, c, bytes) && engine_idle();
}
inline bool hand_on_sized_rooted(Collective c, MPI_Comm comm, int root, int root_count, MPI_Datatype root_type,
                                 int count, MPI_Datatype type) {
  return g_last_communicator.rank == root ? hand_on_sized(c, comm, root_count, root_type)
                                          : hand_on_sized(c, comm, count, type);
}

// decide(): the context of a call of `bytes` that its communicator gives to PMPI by its size
// alone, or null where the full decision must be taken.
inline CommContext* handed_on_by_size(Collective c, MPI_Comm comm, std::uint64_t bytes) {
  const LastCommunicator& last = g_last_communicator;
  return comm == last.comm && comm != MPI_COMM_NULL && given_to_pmpi(last, c, bytes) && engine_idle() ? last.ctx
                                                                                                       : nullptr;
}

}  // namespace mcorecoll
