// Process-wide state: the configuration, the per-communicator contexts cached as MPI
// attributes, and teardown from an attribute on MPI_COMM_SELF (run first by MPI_Finalize).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <functional>

namespace mcorecoll {

class CommContext;
struct Config;

// The configuration; on a settings error, says every problem and aborts the job through
// `comm`. Also makes sure the finalize hook is in place.
const Config& config_or_abort(MPI_Comm comm);

// The cached context of an intracommunicator or intercommunicator, made on first use without
// communication (not set up yet: CommContext::set_up).
CommContext& context_of(MPI_Comm comm);
// Sets the context up if it is not yet: collective over its communicator, but for a context
// prepared in MPI_Init (the world's), which it completes without communication.
void set_up_context(CommContext& ctx, const Config& config);
// Both: the context, set up or prepared (the describing calls of public_api.cpp).
CommContext& context_for(MPI_Comm comm, const Config& config);

// MPI_COMM_WORLD's context where its set-up was made inside MPI_Init (it tells where every
// process of the world sits), else null (sessions, MCORECOLL_SETUP_WORLD_AT_INIT=0).
const CommContext* prepared_world();

// Every rank of `comm` runs with the same settings, or the job stops with a message (ranks that
// route differently deadlock: decisions/settings_mismatch.hpp). Collective.
void check_same_settings(MPI_Comm comm, const Config& config);

// MPI_Comm_dup and MPI_Comm_dup_with_info (`with_info`): the MPI library's, then, where the
// parent's duplicates are set up at their duplication, the duplicate's set-up
// (node/dup_setup.hpp). Collective over `comm`.
int comm_dup(MPI_Comm comm, bool with_info, MPI_Info info, MPI_Comm* newcomm);

// MPI_Comm_split, MPI_Comm_split_type, MPI_Comm_create, MPI_Cart_create and MPI_Cart_sub: the
// MPI library's, then, where the part made spans nodes and is among the first
// MCORECOLL_SETUP_AT_SPLIT made from a communicator set up across nodes, its set-up, inside the
// call, where every rank may wait. Collective over `comm`.
int comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm);
int comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm* newcomm);
int comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm);
// MPI_Comm_create_group: the same, collective over the group's members, who agree first that
// each is within its count (one allreduce on the part).
int comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm);
int cart_create(MPI_Comm comm, int ndims, const int* dims, const int* periods, int reorder, MPI_Comm* newcomm);
int cart_sub(MPI_Comm comm, const int* remain_dims, MPI_Comm* newcomm);
// MPI_Graph_create, MPI_Dist_graph_create and MPI_Dist_graph_create_adjacent: the same.
int graph_create(MPI_Comm comm, int nnodes, const int* index, const int* edges, int reorder, MPI_Comm* newcomm);
int dist_graph_create(MPI_Comm comm, int n, const int* sources, const int* degrees, const int* destinations,
                      const int* weights, MPI_Info info, int reorder, MPI_Comm* newcomm);
int dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int* sources, const int* sourceweights,
                               int outdegree, const int* destinations, const int* destweights, MPI_Info info,
                               int reorder, MPI_Comm* newcomm);
// A part of `comm` named `call`, made by `make` (the MPI library's Fortran binding, which reads
// the arguments that C cannot, MPI_UNWEIGHTED's among them), set up as the splits; a C call of
// these names inside it (MPICH's bindings make one) only makes the part.
int part_made_by(MPI_Comm comm, const char* call, MPI_Comm* newcomm, const std::function<int()>& make);
#if MCORECOLL_MPI_HAS_SESSIONS
// MPI_Comm_create_from_group: the MPI library's, then, where the communicator spans nodes, its
// set-up inside the call (collective over the group's members), the process's first
// MCORECOLL_SETUP_AT_SPLIT of them.
int comm_create_from_group(MPI_Group group, const char* tag, MPI_Info info, MPI_Errhandler errhandler,
                           MPI_Comm* newcomm);
#endif

// Called from our MPI_Finalize wrappers: registers the finalize hook if no collective did.
void prepare_finalize();

}  // namespace mcorecoll
