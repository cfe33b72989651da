// The hand-off of a blocking call that its communicator gives to the MPI library at every size
// (CommContext::blocking_handed_on): the generated entry point asks this before anything else
// and calls PMPI_X at once. Deciding costs 250-380 instructions a call (bench/handoff); this
// costs a dozen, so that a collective mcorecoll leaves alone costs what the MPI library's does.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "decisions/collective.hpp"
#include "progress/progress.hpp"

namespace mcorecoll {

// The communicator of the last collective and its context's mask, side by side in one cache
// line (runtime.cpp keeps them). Only below MPI_THREAD_MULTIPLE, where one thread at a time is
// inside MPI; elsewhere `comm` stays MPI_COMM_NULL. The delete callback clears it, so a handle
// that MPI reuses after a free never finds a stale mask.
struct LastCommunicator {
  MPI_Comm comm;
  const std::uint32_t* blocking_handed_on;  // never null (a zero word before any context)
};
extern LastCommunicator g_last_communicator;

inline bool hand_on_at_once(Collective c, MPI_Comm comm) {
  const LastCommunicator& last = g_last_communicator;
  return comm == last.comm && comm != MPI_COMM_NULL &&
         (*last.blocking_handed_on >> static_cast<unsigned>(c) & 1u) != 0 && engine_idle();
}

}  // namespace mcorecoll
