// Whether mcorecoll passes every call through untouched, decided once at load:
//  - a library built for one MPI inside a process that runs the other (an Open MPI build
//    preloaded into an MPICH program, or the reverse): every entry point forwards its
//    arguments untouched to the next definition (the process's own MPI), instead of handing
//    MPICH's integer handles to Open MPI's pointers;
//  - MCORECOLL_DISABLE=1 in the environment: none of mcorecoll runs, every call goes to the
//    next definition.
#pragma once

namespace mcorecoll {

bool foreign_mpi();       // decided once, at load
bool passing_through();   // foreign, or disabled by the environment; decided once, at load
// The next definition of `symbol` after this library (the process's MPI), for forwarding.
void* next_definition(const char* symbol);

}  // namespace mcorecoll
