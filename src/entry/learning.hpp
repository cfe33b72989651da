// Learning in the run, the part that needs MPI and the communicator (the schedule and the rule:
// decisions/learning.hpp): each communicator's size classes under exploration, the timing of
// their calls through the entry points' hook, and the ranks' agreement on the fastest path.
#pragma once

#include <cstdint>

#include <string>
#include <vector>

#include "decisions/collective.hpp"
#include "decisions/learned_file.hpp"
#include "entry/call_decision.hpp"
#include "progress/timed_operation.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// A call of collective `c` and `bytes` (equal on every rank) that auto mode routes to `path` on
// `ctx`, where learning may act (MCORECOLL_LEARN=auto, no forced path, a path the node machinery
// may take here): the path it takes. The calls of a class that may take two or three paths
// explore (its blocking calls, and its non-blocking ones on a communicator inside one node or,
// where operations across nodes may call MPI, across nodes) and, at the class's call
// learn_calls(n), the ranks agree: a blocking call by a collective of the MPI library on the
// communicator, as a set-up makes; a non-blocking one inside a node without waiting, through
// the node's shared memory, on a switch call a few calls later; across nodes at the
// communicator's next blocking call that asks this (a meeting, learning.cpp). The other calls
// take what the class learned, once it has, else `path`. Equal on every rank.
// *why: the reason where it is PMPI.
// *explores: whether the class still explores after this call (a blocking call or persistent
// initialization waited for a pending agreement first); *settled: whether this call takes the
// path the class learned, as every later call of the class will. Equal on every rank.
int learned_path(CommContext& ctx, const Config& config, Collective c, std::uint64_t bytes, int path, Form form,
                 const char** why, bool* explores, bool* settled);

// At a persistent initialization whose class explores (Decision::explores): whether its ranks
// can agree without waiting on `ctx` (inside one node, through its shared memory, made here
// where the row's path had not made it: collective). Then each start of the request is made as
// a non-blocking call of the class (entry/reissued_operation.hpp). Equal on every rank.
bool agrees_without_waiting(CommContext& ctx, const Config& config);

// Inside MPI_Init, on every rank of the world, once its set-up is made: the world's rank 0
// reads the learned file of this job's key (decisions/learned_file.hpp; a damaged, foreign or
// stale one is named in a warning and ignored) and hands it to every rank. Collective.
void read_learned(const CommContext& world, const Config& config);

// At MPI_Finalize: the world's rank 0 writes what its communicators learned in this run,
// merged with what the file held, where something was learned. A file that cannot be written
// is a warning.
void write_learned(const Config& config);

// What this process knows of learned sizes, for the job's report: the learned file's (read at
// the start), then this run's.
struct KnownSize {
  LearnedSize size;
  bool from_file = false;
  // This process's calls of the place: explored (on either candidate), and on the learned
  // path after (every form); counted only with MCORECOLL_STATS or MCORECOLL_REPORT.
  std::uint64_t explored = 0, after = 0;
};
std::vector<KnownSize> known_sizes();

// For mcorecoll-info: the learned file (on the world's rank 0, which reads it) and each size
// known, with its measures and where it comes from; indented lines.
std::string describe_learned(const Config& config);

// The entry points' hook at the end of a call (call_hooks.cpp): its time on this rank, where
// the call was a blocking one of a class's samples; a non-blocking sample whose call made no
// operation (it failed first) is dropped.
void end_learning_sample(std::uint64_t ns);

// A non-blocking call that is one of a class's samples (learned_path() made it one, on this
// thread): where its time goes, once (entry/call_forms.hpp times its operation); false for any
// other call.
bool take_operation_sample(SampleSlot* slot);
// A sample taken whose operation was not made (the MPI library's call failed): none.
void drop_operation_sample(const SampleSlot& slot);

}  // namespace mcorecoll
