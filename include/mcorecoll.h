/* mcorecoll: multicore-aware MPI_Barrier, MPI_Bcast and MPI_Alltoall by PMPI interposition.
 * Applications need nothing from this header: the library works by being preloaded or linked
 * ahead of the MPI library. These calls are for tools (mcorecoll-info) and curious programs. */
#ifndef MCORECOLL_H
#define MCORECOLL_H

#include <mpi.h>

#define MCORECOLL_VERSION_MAJOR 0
#define MCORECOLL_VERSION_MINOR 1
#define MCORECOLL_VERSION_PATCH 0

#ifdef __cplusplus
extern "C" {
#endif

/* "0.1.0" */
const char* mcorecoll_version(void);

/* The MPI this library was built for: "openmpi" or "mpich". */
const char* mcorecoll_mpi(void);

/* Writes, as text, what this rank knows about `comm` (its node, the node's hierarchy, where
 * the rank sits, the path each collective takes per size band and why, the sizes learned and
 * the learned file) and the effective settings, into `text` (at most `length` bytes, always
 * terminated). Collective over `comm` on first use. Returns the length of the full text, or
 * -1 if the settings are invalid (then `text` holds the errors). */
int mcorecoll_describe(MPI_Comm comm, char* text, int length);

/* The MPI library's own definition of `name` (e.g. "PMPI_Bcast"), past mcorecoll: mcorecoll
 * defines the PMPI_ names of the calls it serves, for profilers loaded before it, so a program
 * that wants the MPI library alone (a benchmark's baseline) calls it through this. Null where
 * the MPI library has no such function. */
void* mcorecoll_mpi_function(const char* name);

#ifdef __cplusplus
}
#endif

#endif
