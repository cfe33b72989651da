/* The C entry points take their arguments as raw register-sized values, so that a library
 * built for one MPI can forward them untouched when it finds itself inside a process of the
 * other MPI (Open MPI handles are pointers, MPICH handles are ints). raw_entry.cpp turns them
 * back into this build's MPI types. */
#ifndef MCORECOLL_RAW_ABI_H
#define MCORECOLL_RAW_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef intptr_t mcorecoll_raw_t; /* an MPI handle or an int, as passed in a register */

int mcorecoll_raw_barrier(mcorecoll_raw_t comm);
int mcorecoll_raw_bcast(void* buffer, mcorecoll_raw_t count, mcorecoll_raw_t datatype,
                        mcorecoll_raw_t root, mcorecoll_raw_t comm);
int mcorecoll_raw_alltoall(const void* sendbuf, mcorecoll_raw_t sendcount,
                           mcorecoll_raw_t sendtype, void* recvbuf, mcorecoll_raw_t recvcount,
                           mcorecoll_raw_t recvtype, mcorecoll_raw_t comm);
int mcorecoll_raw_finalize(void);

#ifdef __cplusplus
}
#endif

#endif
