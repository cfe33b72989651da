// Learning in the run, the part that needs MPI and the communicator (the schedule and the rule:
// decisions/learning.hpp): each communicator's size classes under exploration, the timing of
// their calls through the entry points' hook, and the ranks' agreement on the faster path.
#pragma once

#include <cstdint>

#include "decisions/collective.hpp"
#include "entry/call_decision.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// A call of collective `c` and `bytes` (equal on every rank) that auto mode routes to `path` on
// `ctx`, where learning may act (MCORECOLL_LEARN=auto, no forced path, a path the node machinery
// may take here): the path it takes. A blocking call of a class that may take two paths
// explores and, at the class's call kLearnCalls, agrees with the other ranks (a collective of
// the MPI library on the communicator, as a set-up makes); the other forms take what the class
// learned, once it has, else `path`. Equal on every rank. *why: the reason where it is PMPI.
int learned_path(CommContext& ctx, const Config& config, Collective c, std::uint64_t bytes, int path, Form form,
                 const char** why);

// The entry points' hook at the end of a call (call_hooks.cpp): its time on this rank, where
// the call was one of a class's samples.
void end_learning_sample(std::uint64_t ns);

}  // namespace mcorecoll
