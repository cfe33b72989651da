/* The C entry points take their arguments as raw register-sized values, so that a library
 * built for one MPI can forward them untouched when it finds itself inside a process of the
 * other MPI (Open MPI handles are pointers, MPICH handles are ints). raw_collectives.cpp
 * (generated) and raw_runtime.cpp turn them back into this build's MPI types. */
#ifndef MCORECOLL_RAW_ABI_H
#define MCORECOLL_RAW_ABI_H

#include <stdint.h>

#include "progress/fast_path.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef intptr_t mcorecoll_raw_t; /* an MPI handle or an int, as passed in a register */

/* The gate of the completion and request calls: progress/fast_path.h. */

/* MPI_Init and MPI_Init_thread: the MPI library's, then mcorecoll's check that every rank runs
 * with the same settings. */
int mcorecoll_raw_init(void* argc, void* argv);
int mcorecoll_raw_init_thread(void* argc, void* argv, mcorecoll_raw_t required, void* provided);
int mcorecoll_raw_finalize(void);

/* Completion calls: requests, statuses, flags and indices are pointers; counts are ints;
 * MPI_Request_get_status takes its request by value. */
int mcorecoll_raw_wait(void* request, void* status);
int mcorecoll_raw_test(void* request, void* flag, void* status);
int mcorecoll_raw_waitall(mcorecoll_raw_t count, void* requests, void* statuses);
int mcorecoll_raw_testall(mcorecoll_raw_t count, void* requests, void* flag, void* statuses);
int mcorecoll_raw_waitany(mcorecoll_raw_t count, void* requests, void* index, void* status);
int mcorecoll_raw_testany(mcorecoll_raw_t count, void* requests, void* index, void* flag, void* status);
int mcorecoll_raw_waitsome(mcorecoll_raw_t incount, void* requests, void* outcount, void* indices,
                           void* statuses);
int mcorecoll_raw_testsome(mcorecoll_raw_t incount, void* requests, void* outcount, void* indices,
                           void* statuses);
int mcorecoll_raw_request_get_status(mcorecoll_raw_t request, void* flag, void* status);
int mcorecoll_raw_request_free(void* request);
int mcorecoll_raw_start(void* request);
int mcorecoll_raw_startall(mcorecoll_raw_t count, void* requests);

#ifdef __cplusplus
}
#endif

#endif
