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
bool passing_through();   // foreign, or disabled by the environment; decided once, at load
// The next definition of `symbol` after this library (the process's MPI), for forwarding.
void* next_definition(const char* symbol);

// Another PMPI tool in the process (a profiler preloaded with mcorecoll, before or after it):
// what that means for the calls, in one sentence; empty where there is none. mcorecoll does
// not define the PMPI_ names yet, so a tool ahead of it passes its calls straight to the MPI
// library, and a tool after it never sees the calls mcorecoll takes.
std::string other_tools();

}  // namespace mcorecoll
