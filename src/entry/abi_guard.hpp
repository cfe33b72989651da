// Detects, at load, a library built for one MPI inside a process that runs the other (an Open
// MPI build preloaded into an MPICH program, or the reverse). Then every entry point forwards
// its arguments untouched to the next definition (the process's own MPI) and mcorecoll stays
// out of the way, instead of handing MPICH's integer handles to Open MPI's pointers.
#pragma once

namespace mcorecoll {

bool foreign_mpi();  // decided once, at load
// The next definition of `symbol` after this library (the process's MPI), for forwarding.
void* next_definition(const char* symbol);

}  // namespace mcorecoll
