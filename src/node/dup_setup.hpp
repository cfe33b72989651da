// A duplicate set up at its MPI_Comm_dup: for communicators that span nodes and are used only
// with non-blocking collectives (a library's duplicate of the communicator it was given, running
// its Ialltoall or Iallreduce beside its work).
//
// Across nodes no line is shared by every rank, so a set-up started by a non-blocking call
// cannot agree on a switch call without some rank waiting (node/setup_window.hpp). A
// duplication is a collective where every rank may wait, and a duplicate has its parent's ranks
// in its parent's order: where the parent is set up, the duplicate's node map, hierarchy and
// rows are the parent's (no communication), and only two things are made anew:
// - its node segment: each node leader carves one out of its pool and hands the news to its
//   node through the parent's segment (its duplicates' lines, by turns), where the node's other
//   ranks have answered, before the MPI library's duplication, whether they can take it (so
//   that their answers are there once the leader's duplication returns);
// - its leaders' communicator: the spare that the parent's LeadersSource made ahead without
//   blocking; one allreduce on it among the leaders tells them whether every node can take the
//   duplicate, and each leader tells its node the verdict. (Started before the MPI library's
//   duplication and completed after it, tried: with Open MPI 4.1 the duplication took 3x as
//   long, its non-blocking allreduce moving only now and then.)
// The MPI library's own duplication comes first, so that a rank waits only for ranks that
// have entered MPI_Comm_dup too. The duplicate is then prepared like the world at MPI_Init: its
// Nth collective (MCORECOLL_SETUP_AFTER), in any form, completes its set-up without
// communication, and its calls from there take mcorecoll's paths.
#pragma once

#include <mpi.h>

#include <memory>

#include "node/comm_context.hpp"

namespace mcorecoll {

struct Config;

// Before the MPI library's duplication of a `parent` whose dups_set_up is true (its set-up
// across nodes decided it, alike on every rank), collective over it: false where its duplicates
// cannot be set up this way after all (no segment carved out of a node pool; alike on every
// rank); else this rank's answer is given (the node's ranks but its leader), so that the
// leader finds every answer there once its own duplication returns.
bool answer_duplicate(CommContext& parent, const Config& config);

// After it, where answer_duplicate() was true (inside MPI_Comm_dup): the context of `child`,
// the duplicate just made, prepared; null where some node cannot take it (no room in a
// leader's pool, a GPU runtime loaded since the parent's set-up), alike on every rank: the
// duplicate is then set up like any other communicator. (A duplication that failed on some
// ranks only, under MPI_ERRORS_RETURN, leaves the others waiting here: MPI leaves such a
// communicator undefined.)
// `call`: the duplication's name, for mcorecoll_describe() and verbose mode.
std::unique_ptr<CommContext> set_up_duplicate(CommContext& parent, MPI_Comm child, const char* call,
                                              const Config& config);

}  // namespace mcorecoll
