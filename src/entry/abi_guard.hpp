// Whether mcorecoll passes every call through untouched, decided once at load:
//  - a library built for one MPI inside a process that runs the other (an Open MPI build
//    preloaded into an MPICH program, or the reverse): every entry point forwards its
//    arguments untouched to the next definition (the process's own MPI), instead of handing
//    MPICH's integer handles to Open MPI's pointers;
//  - MCORECOLL_DISABLE=1 in the environment: none of mcorecoll runs, every call goes to the
//    next definition.
#pragma once

#include <string>

namespace mcorecoll {

bool foreign_mpi();       // decided once, at load
// Foreign, or disabled by the environment; decided once, at load. Read on every entry point's
// path: inline, one load.
extern bool g_passing_through;
inline bool passing_through() { return __builtin_expect(g_passing_through, 0); }
// The next definition of `symbol` after this library (the process's MPI), for forwarding.
void* next_definition(const char* symbol);

// The next definition of entry point `name` where a tool loaded after mcorecoll defines it (its
// object does not define `profiling`, the PMPI_ name, which the MPI library defines with it);
// null where the next is the MPI library's.
void* tool_after(const char* name, const char* profiling);

// Another PMPI tool in the process (a profiler preloaded with mcorecoll, before or after it),
// in one sentence for verbose mode; empty where there is none. Either way the tool sees every
// call and mcorecoll serves it: a tool before mcorecoll calls mcorecoll's PMPI_X; mcorecoll's
// MPI_X hands the call to a tool after it, whose PMPI_X comes back to mcorecoll.
std::string other_tools();

}  // namespace mcorecoll

// The MPI library's definition of `name`, as mcorecoll's own calls reach it
// (wrappers/library_calls.h, which declares it for C too).
extern "C" void* mcorecoll_library_lookup(const char* name);
