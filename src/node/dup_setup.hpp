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
//   ranks answer whether they can take a view;
// - its leaders' communicator: the leaders split the parent's LeadersSource, each with the
//   colour of its node's answer, so that the split also tells every leader whether every node
//   can take the duplicate (its size), and the leader tells its node the verdict.
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

// Whether duplicates of `parent` are set up at their duplication (equal on every rank).
bool sets_up_duplicates(const CommContext& parent);

// Collective over `parent` (inside MPI_Comm_dup, after the MPI library's): the context of
// `child`, the duplicate just made, prepared; null where some node cannot take it (no room in
// a leader's pool, a rank that cannot map it), alike on every rank: the duplicate is then set
// up like any other communicator.
std::unique_ptr<CommContext> set_up_duplicate(CommContext& parent, MPI_Comm child, const Config& config);

}  // namespace mcorecoll
