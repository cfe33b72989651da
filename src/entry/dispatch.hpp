// What the C and Fortran entry points in wrappers/ call. The collectives, blocking,
// non-blocking and persistent, are declared by collective_entries.hpp, which the build
// generates from wrappers/collectives.txt; each family's <family>_calls.cpp routes a call
// (call_decision.hpp) to its shared-memory algorithm or to PMPI, and counts it.
#pragma once

#include <mpi.h>

#include "collective_entries.hpp"

namespace mcorecoll {

// MPI_Init and MPI_Init_thread: the MPI library's, then after_init() (runtime.cpp).
int init(int* argc, char*** argv);
int init_thread(int* argc, char*** argv, int required, int* provided);
// Once MPI runs (called again, it does nothing): every rank of MPI_COMM_WORLD checks that they
// all run with the same settings, before any communicator counts its calls by them.
void after_init();
// Completes the non-blocking operations left (their requests freed early), then PMPI_Finalize
// (runtime.cpp).
int finalize();

}  // namespace mcorecoll
