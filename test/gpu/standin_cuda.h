/* A stand-in for CUDA's driver, for tests only: built as libcuda.so.1, so that mcorecoll finds
 * it as it finds the real one (dlopen RTLD_NOLOAD), it answers cuPointerGetAttributes for the
 * address ranges a test marks as device memory. Those pages have no access rights while
 * closed: a read or write by anyone (mcorecoll) crashes the test. The emulated CUDA-aware MPI
 * library (emulated_cuda_aware.c) opens them while the MPI library itself runs. */
#ifndef MCORECOLL_TEST_STANDIN_CUDA_H
#define MCORECOLL_TEST_STANDIN_CUDA_H

#include <stddef.h>

/* `bytes` of "device memory" (whole pages, closed), or NULL. `managed`: CUDA's managed memory,
 * which the driver reports as managed whatever type it gives (here: host). */
void* standin_device_alloc(size_t bytes, int managed);
void standin_device_free(void* p);
/* Whether `p` lies in a range standin_device_alloc() gave. */
int standin_is_device(const void* p);
/* Every device range readable and writable (the MPI library, or the test, at work), or none. */
void standin_open_device_memory(void);
void standin_close_device_memory(void);
/* Calls of cuPointerGetAttributes so far: mcorecoll asked. */
long standin_pointer_queries(void);

#endif
