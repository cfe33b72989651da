// The hand-off of a call that its communicator gives to the MPI library by its size alone
// (CommContext::pmpi_below). A blocking call given there at every size: the generated entry
// point asks before anything else and calls PMPI_X at once. Other sizes: decide() asks first.
// Deciding in full costs 250-430 instructions a call (bench/handoff); this a dozen, so that a
// collective mcorecoll leaves alone costs about what the MPI library's does.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "decisions/collective.hpp"
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
};
extern LastCommunicator g_last_communicator;

// The generated entry points: a blocking call its communicator gives to PMPI at every size.
inline bool hand_on_at_once(Collective c, MPI_Comm comm) {
  const LastCommunicator& last = g_last_communicator;
  return comm == last.comm && comm != MPI_COMM_NULL && last.pmpi_below[static_cast<int>(c)] == kEverySize &&
         engine_idle();
}

// decide(): the context of a call of `bytes` that its communicator gives to PMPI by its size
// alone, or null where the full decision must be taken.
inline CommContext* handed_on_by_size(Collective c, MPI_Comm comm, std::uint64_t bytes) {
  const LastCommunicator& last = g_last_communicator;
  return comm == last.comm && comm != MPI_COMM_NULL && bytes < last.pmpi_below[static_cast<int>(c)] && engine_idle()
             ? last.ctx
             : nullptr;
}

}  // namespace mcorecoll
