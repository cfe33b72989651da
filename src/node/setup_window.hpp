// A communicator set up without making any rank wait: for communicators whose collectives are
// all non-blocking (a library's duplicate that overlaps its Ialltoall or Iallreduce with work).
//
// Its Nth collective (MCORECOLL_SETUP_AFTER), non-blocking, opens a window, and every rank
// starts the set-up's exchange (each rank's record) as a non-blocking allgather of the MPI
// library on the communicator, before the call itself, so that every rank starts its
// collectives on the communicator in one order. The MPI library progresses the exchange in any
// of its calls. While the window is open, every call goes to the MPI library; each call tests
// the exchange, and once a rank holds every record it takes its view of the segment that its
// node leader (rank 0) carved out of the node's pool before the exchange and named in it. Where
// the world's set-up (made inside MPI_Init) tells each rank, without communication, that the
// communicator lies on one node, rank 0 knows it leads it. Where the world cannot tell (no
// MPI_Init, as under sessions, processes outside MPI_COMM_WORLD, or no set-up at MPI_Init),
// rank 0 carves on the guess that it does, and the records say whether it was right; where they
// show more than one node, the window is refused (alike on every rank) and the carving given
// back. (A second round for the leader's news would need a channel of mcorecoll's own, and Open
// MPI 4.1's MPI_Comm_idup breaks the non-blocking collectives running beside it on the
// communicator: MPI_ERR_TRUNCATE in their schedules, tried.)
//
// The switch is agreed in the segment's switch line, with no rank waiting for another: each
// call of the window publishes its index there once its rank holds a view, and the last node
// rank to take its view closes the line at one past the latest index published. That call is
// the first that every rank takes on mcorecoll's paths: a rank that published index k (going
// to the MPI library) never learns a switch at k or before, and a rank learns the switch only
// after it holds its view.
//
// A blocking call or a persistent initialization in the window may wait, as a set-up does: it
// waits for the exchange and then for the switch, publishing the index before its own, so that
// every rank's paths change at that very call.
//
// Only inside one node: across nodes no line is shared by every rank, and ranks that learn a
// switch by message may already have passed it (doc/limits.md). There a duplicate of a
// communicator set up is set up at its MPI_Comm_dup (node/dup_setup.hpp); any other by its next
// blocking or persistent collective.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "node/comm_context.hpp"
#include "node/node_setup.hpp"

namespace mcorecoll {

class NodePool;
struct Config;

// What each rank sends in the window's exchange.
struct Arrival {
  RankRecord rank;
  LeaderNews news;        // the leader's (node rank 0); empty on the others
  ShmAddress first_pool;  // the first pool this rank maps (error ENOENT: none)
};

struct SetUpWindow {
  MPI_Request exchange = MPI_REQUEST_NULL;
  bool exchanged = false;  // every rank's arrival is in `all`
  bool completing = false;  // inside the MPI library's completion of the exchange
  bool freed = false;       // the communicator was freed meanwhile (close_window())
  Arrival mine;
  std::vector<Arrival> all;
  NodePool* pool = nullptr;     // the leader's, where it carved the segment
  bool closer = false;          // this rank took the last view: it closes the switch line
  std::uint64_t switch_at = 0;  // the agreed call, once known (0 before)
  bool placed = true;  // the world's set-up placed the ranks (else the leader's carving is a guess)
};


enum class Window {
  open,      // the call goes to the MPI library
  switched,  // the communicator is prepared and has its segment: this call and the rest route
  failed,    // no segment this way (the leader's pool had no room, a rank maps another pool):
             // prepared without one; non-blocking calls go to the MPI library, and the next
             // blocking or persistent collective makes the segment, as for any prepared one
  refused,   // the records show more than one node (ctx.window_refused says so): not prepared;
             // non-blocking calls go to the MPI library, and the next blocking or persistent
             // collective sets it up
};

// At the communicator's Nth call, a non-blocking one: opens the window (true), or returns
// false with *why (equal on every rank: from the world's set-up and the settings). `world`:
// MPI_COMM_WORLD's context where it was prepared inside MPI_Init, else null.
// `calls_while_blocked`: progress/progress_helper.hpp's mpi_calls_while_blocked().
bool open_window(CommContext& ctx, const CommContext* world, const Config& config, bool calls_while_blocked,
                 const char** why);

// Call number `call` of the communicator while its window is open: `may_wait` false for a
// non-blocking call (it never waits), true for a blocking call or a persistent initialization.
Window pass_window(CommContext& ctx, const Config& config, std::uint64_t call, bool may_wait);

// The communicator goes (MPI_Comm_free, or MPI_Finalize for one never freed): the exchange
// completed, waiting for it (every rank frees the communicator, or finalizes), and the view
// of the segment taken, so that the last view to go gives the segment back. True where the
// communicator was freed while the exchange completed: MPICH frees a communicator with a
// pending request once that completes, inside the call that completes it, where the context's
// release finds `completing` set and leaves the context to this caller.
bool close_window(CommContext& ctx, const Config& config);

// Frees what the window holds, once its exchange is complete; where it is not (the MPI library
// is going and nobody may wait), its buffers are left to the process's end.
void drop_window(std::unique_ptr<SetUpWindow>& window);

}  // namespace mcorecoll
