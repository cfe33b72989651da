/* The fast path of the completion and request calls (C and C++: wrappers/c_runtime.c defines
 * it, progress.cpp keeps its count, abi_guard.cpp shuts it in a process of another MPI). */
#ifndef MCORECOLL_FAST_PATH_H
#define MCORECOLL_FAST_PATH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the completion and request calls read before anything else, side by side in one
 * cache line (c_runtime.c): `users`, non-zero while a call must go through mcorecoll's
 * completion code, because it holds requests or operations of its own (progress.cpp counts
 * them) or passes through to another MPI's process (abi_guard.cpp sets it for good); and the
 * MPI library's functions, so that a call with `users` at zero is one load, one branch and the
 * MPI library's own call, touching one more cache line than the MPI library alone (a program
 * that polls MPI_Test in a loop that misses every cache and TLB pays for each line touched). */
struct mcorecoll_fast_path {
  int users;
  int (*test)(void* request, void* flag, void* status);
  int (*wait)(void* request, void* status);
  int (*testall)(intptr_t count, void* requests, void* flag, void* statuses);
  int (*waitall)(intptr_t count, void* requests, void* statuses);
  int (*testany)(intptr_t count, void* requests, void* index, void* flag, void* status);
  int (*testsome)(intptr_t incount, void* requests, void* outcount, void* indices, void* statuses);
  int (*request_get_status)(intptr_t request, void* flag, void* status);
  /* the second line */
  int (*waitany)(intptr_t count, void* requests, void* index, void* status);
  int (*waitsome)(intptr_t incount, void* requests, void* outcount, void* indices, void* statuses);
  int (*request_free)(void* request);
  int (*start)(void* request);
  int (*startall)(intptr_t count, void* requests);
};
extern struct mcorecoll_fast_path mcorecoll_fast;

#ifdef __cplusplus
}
#endif

#endif
