// What every intercepted call decides first, alike for every collective: its communicator's
// context, and the path it takes (a shared-memory algorithm or PMPI), from route.hpp's choice
// and what the call's arguments and the communicator allow. The families' *_calls.cpp files
// add their own checks (roots, buffers, sizes) and run the path.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <memory>

#include "decisions/collective.hpp"
#include "decisions/route.hpp"
#include "decisions/stats.hpp"

namespace mcorecoll {

class CommContext;
class Operation;
struct RootedSizes;
struct Config;

// Larger messages always go to PMPI: MPI_Pack and the leaders' PMPI calls count in int.
constexpr std::uint64_t kMaxShmBytes = 0x7fffffff;

// How a call was made: its set-up rules differ. A communicator is set up (its context, its
// segment, the single-copy probe) by collectives of the MPI library on it, which a blocking call
// and a persistent initialization may make but a non-blocking call may not: it must not wait
// for other ranks (a rank may start non-blocking operations on two communicators in one order,
// another rank in the other). Whether an earlier blocking or persistent call set a
// communicator up is a matter of program order, alike on every rank.
enum class Form { blocking, nonblocking, persistent };

// The context and path of one call.
struct Decision {
  CommContext* ctx = nullptr;  // null: PMPI (arguments PMPI must judge, or no context yet)
  int path = kPmpiPath;
  bool count = false;       // statistics are on
  std::uint64_t bytes = 0;  // for the statistics
  // The ranks' agreement on device memory (call_decision.cpp): -1 not made, 0 none on any
  // rank, 1 some rank's buffer is device memory.
  int device_vote = -1;
  // Learning in the run (entry/learning.hpp), equal on every rank: this call's size class still
  // explores (read by a persistent initialization), or this call takes the path the class
  // learned, as every later one will (read by a persistent request's start:
  // entry/reissued_operation.hpp).
  bool explores = false;
  bool settled = false;
};

// Signature bytes of `count` elements of `type`, or false for arguments PMPI must judge
// itself (it raises the error through the communicator's handler, as without mcorecoll).
bool signature_bytes(int count, MPI_Datatype type, std::uint64_t* bytes);

// The largest and the sum of `ranks` blocks of counts[i] elements of `type`, in bytes (the
// v-forms' count arrays); false for arguments the MPI library must judge (no array, a negative
// count, an invalid datatype).
bool block_sizes(const int* counts, MPI_Datatype type, int ranks, std::uint64_t* largest, std::uint64_t* total);

// A call the MPI library takes before any routing: on a null communicator, on an
// intercommunicator where mcorecoll takes the collective only inside one node or needs the
// root among its ranks, or with arguments only the MPI library may judge. Still counted in the
// statistics (MCORECOLL_STATS), as a PMPI call of `bytes` (0 where its sizes were not looked at).
Decision handed_on(MPI_Comm comm, std::uint64_t bytes = 0);
void count_handed_on(Collective c, MPI_Comm comm, CallKind kind);

// A null buffer whose data would start at address 0: MPI_BOTTOM with a datatype of absolute
// addresses is legal, but with anything else the MPI library raises MPI_ERR_BUFFER (MPICH) or
// faults (Open MPI 4.1), and the call is its to judge. Rank-local, like the MPI library's own
// check: a program where only some ranks pass it is erroneous under either.
bool null_buffer(const void* buffer, std::uint64_t bytes, MPI_Datatype type);

// The context and the routed path of a call of `bytes` (collective c) on `comm`; sets up the
// communicator where the form allows it.
Decision decide(Collective c, MPI_Comm comm, std::uint64_t bytes, Form form);

// The collectives that take the node machinery only inside one node (collective.hpp's
// node_only()): decide(), or PMPI with the reason for communicators across nodes, and for the
// non-blocking forms of those without an operation (`operations` false: the v-forms whose ranks
// know only their own sizes).
Decision decide_node_only(Collective c, MPI_Comm comm, std::uint64_t bytes, Form form, bool operations = false);

// A v-form whose ranks must agree on its size first (only the root, or each rank, knows its
// blocks): the path if any size may take the node machinery (a forced path, or a band of the
// table or the bounds), with the communicator's shared memory ready; then agree and
// route_agreed(). Equal on every rank.
Decision decide_before_agreeing(Collective c, MPI_Comm comm);

// A blocking v-form whose communicator's last header line found a size it gives to PMPI, on a
// call that would skip the header line for that (decide_before_agreeing): true, with the skip
// counted, where this rank may tell so at once (entry/fast_handoff.hpp: the last communicator,
// nothing pending). The same answer and the same count as the full decision, which the other
// ranks may take. `root`: the rooted ones' (a root out of range is the MPI library's error to
// raise, which the full decision hands on without counting a skip).
bool handed_on_by_memory(Collective c, MPI_Comm comm, int root = 0);

// The node-only collectives that may take mcorecoll's path across nodes once their ranks agree
// on the size (exchange/rooted_sizes.hpp, alltoall/alltoallv_across_nodes.hpp): MPI_Gatherv's and
// MPI_Scatterv's and MPI_Alltoallv's blocking and persistent forms. Their non-blocking forms are
// the MPI library's across nodes.
bool spans_after_agreeing(Collective c, Form form);

// A v-form, once its ranks agreed on `bytes` (equal on every rank): the route for that size.
void route_agreed(Decision& d, Collective c, std::uint64_t bytes);

// A blocking gatherv or scatterv across nodes (decide_before_agreeing() took it there): the
// round of agreement (exchange/rooted_sizes.hpp), then the route by the largest block (PMPI
// where the root's arguments are the MPI library's to judge), the call counted. `header`: the
// root's largest block or kNotOurs, another rank's own block's bytes.
RootedSizes route_after_round(Decision& d, Collective c, int root, std::uint64_t header);

// A persistent v-form's initialization: its ranks agree on the largest block once, by a
// collective of the MPI library (an initialization is collective and may wait, as a set-up
// does), and every start follows the route for that size. `mine`: this rank's largest block,
// kNotOurs (staged_exchange.hpp) where its arguments are the MPI library's to judge (then every
// rank goes to PMPI). *largest: the agreed size. Equal on every rank. Across nodes, gatherv,
// scatterv and alltoallv agree by their round (`across`: given the communicator's context and this
// rank's `mine`, it runs the round, keeps what the operation needs and returns the largest; exchange/rooted_sizes.hpp,
// alltoall/alltoallv_across_nodes.hpp), where an operation across nodes may call MPI after its
// start.
using AgreeAcross = std::function<std::uint64_t(CommContext& ctx, std::uint64_t mine)>;
Decision decide_persistent_v(Collective c, MPI_Comm comm, std::uint64_t mine, std::uint64_t* largest,
                             const AgreeAcross& across = nullptr);

// The context of an intracommunicator (its rank and size without a PMPI query: one lookup), or
// null for a null communicator or an intercommunicator, whose calls are the MPI library's.
const CommContext* intra_context(MPI_Comm comm);

// Whether a rooted call is the library's to consider: an intracommunicator and a root among its
// ranks (else, an intercommunicator's root arguments or an invalid root, the MPI library's
// alone). *is_root: this rank is the root. Equal on every rank but is_root.
bool rooted_here(MPI_Comm comm, int root, bool* is_root);

// An error the MPI library would have raised on this rank alone (the others took mcorecoll's
// path): raised through the communicator's error handler, as the library raises it; returns it.
int raise_error(MPI_Comm comm, int error_class);
// The same for a rank's own side of a rooted call that the MPI library would refuse: its count,
// else its datatype, else its buffer.
int raise_side_error(MPI_Comm comm, int count, MPI_Datatype type);

// A call the router gave an algorithm that this call cannot take after all: PMPI, and why
// (verbose mode).
void fall_back(Decision& d, Collective c, const char* reason);

// Single copy refused on this communicator (the probe is collective, so every rank agrees):
// a forced single copy takes copy-in/copy-out instead; auto mode hands the call to PMPI, as
// its bounds were measured for the single copy, and copy-in/copy-out loses at those sizes.
void without_single_copy(Decision& d, Collective c, int copy_in_out_path);

// The lanes refused for this call (`reason`, equal on every rank: lanes/lanes.hpp): a forced
// MCORECOLL_<X>=lanes takes the collective's first path (the ring, or the leaders'
// composition across nodes); auto mode the path its route gives without the lanes (the
// leaders' composition within the nodes' bounds), else PMPI.
void without_lanes(Decision& d, Collective c, const char* reason);

// The node algorithm the call takes, named (decisions/node_algorithms.hpp), so that the
// statistics and learning see which ran: inside one node `shm` becomes the node's choice, and a
// named algorithm that does not accept the call that choice too; across nodes each names the
// composition (shm). `bytes`: as node_accepts() takes them (equal on every rank). Other paths
// stay as they are.
void name_node_algorithm(Decision& d, Collective c, std::uint64_t bytes);

// The communicator's non-blocking operations go first: a blocking call shares their state,
// and its peers may be waiting for them before they come to it.
void complete_earlier_operations(const Decision& d);

// A non-blocking call on a shared-memory path: its operation handed to the progress engine.
int post(const Decision& d, std::unique_ptr<Operation> op, MPI_Request* request);
// A persistent initialization on a shared-memory path (whatever its areas need is taken by
// the caller first, so that the starts find it held).
int make_persistent(Collective c, const Decision& d, std::unique_ptr<Operation> op, MPI_Request* request);

// A start of a persistent request made as its collective's non-blocking call
// (entry/reissued_operation.hpp): `issue` makes that call, on this thread; the operation it
// would post comes back in made->op instead (none where it took the MPI library's path: then its
// request is in *request), with its decision's path. Its count in the statistics is a
// persistent call's.
struct IssuedStart {
  std::unique_ptr<Operation> op;
  Decision decision;
};
int issue_start(const std::function<int(MPI_Request*)>& issue, IssuedStart* made, MPI_Request* request);
// Whether this thread's call is such a start (issue_start()); note_start() tells it the call's
// decision.
bool issuing_start();
void note_start(const Decision& d);

}  // namespace mcorecoll
