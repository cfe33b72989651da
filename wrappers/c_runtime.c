/* The C entry points that are not collectives: MPI_Init, MPI_Init_thread, MPI_Finalize, and the
 * completion and request calls. This file deliberately does not include mpi.h: see raw_abi.h.
 *
 * The completion and request calls cost a program nothing while mcorecoll holds no request or
 * operation of its own (most programs, most of the time): one load, one predictable branch,
 * and the MPI library's own call. PMPI_* are declared here with raw arguments; in a process
 * of another MPI the gate is never open, so those go through raw_runtime.cpp's forwarding. */
#include "raw_abi.h"

#define MCORECOLL_EXPORT __attribute__((visibility("default")))
#define ENGINE_IDLE __builtin_expect(__atomic_load_n(&mcorecoll_fast.users, __ATOMIC_RELAXED) == 0, 1)

int PMPI_Wait(void* request, void* status);
int PMPI_Test(void* request, void* flag, void* status);
int PMPI_Waitall(mcorecoll_raw_t count, void* requests, void* statuses);
int PMPI_Testall(mcorecoll_raw_t count, void* requests, void* flag, void* statuses);
int PMPI_Waitany(mcorecoll_raw_t count, void* requests, void* index, void* status);
int PMPI_Testany(mcorecoll_raw_t count, void* requests, void* index, void* flag, void* status);
int PMPI_Waitsome(mcorecoll_raw_t incount, void* requests, void* outcount, void* indices, void* statuses);
int PMPI_Testsome(mcorecoll_raw_t incount, void* requests, void* outcount, void* indices, void* statuses);
int PMPI_Request_get_status(mcorecoll_raw_t request, void* flag, void* status);
int PMPI_Request_free(void* request);
int PMPI_Start(void* request);
int PMPI_Startall(mcorecoll_raw_t count, void* requests);

/* Filled in by the dynamic linker's relocations at load: no code runs. */
__attribute__((aligned(128))) struct mcorecoll_fast_path mcorecoll_fast = {
    0, PMPI_Test, PMPI_Wait, PMPI_Testall, PMPI_Waitall, PMPI_Testany, PMPI_Testsome, PMPI_Request_get_status,
    PMPI_Waitany, PMPI_Waitsome, PMPI_Request_free, PMPI_Start, PMPI_Startall};

MCORECOLL_EXPORT int MPI_Init(void* argc, void* argv) { return mcorecoll_raw_init(argc, argv); }
MCORECOLL_EXPORT int MPI_Init_thread(void* argc, void* argv, mcorecoll_raw_t required, void* provided) {
  return mcorecoll_raw_init_thread(argc, argv, required, provided);
}
/* Every rank takes part in the statistics, and operations left pending complete. */
MCORECOLL_EXPORT int MPI_Finalize(void) { return mcorecoll_raw_finalize(); }

MCORECOLL_EXPORT int MPI_Wait(void* request, void* status) {
  if (ENGINE_IDLE) return mcorecoll_fast.wait(request, status);
  return mcorecoll_raw_wait(request, status);
}
MCORECOLL_EXPORT int MPI_Test(void* request, void* flag, void* status) {
  if (ENGINE_IDLE) return mcorecoll_fast.test(request, flag, status);
  return mcorecoll_raw_test(request, flag, status);
}
MCORECOLL_EXPORT int MPI_Waitall(mcorecoll_raw_t count, void* requests, void* statuses) {
  if (ENGINE_IDLE) return mcorecoll_fast.waitall(count, requests, statuses);
  return mcorecoll_raw_waitall(count, requests, statuses);
}
MCORECOLL_EXPORT int MPI_Testall(mcorecoll_raw_t count, void* requests, void* flag, void* statuses) {
  if (ENGINE_IDLE) return mcorecoll_fast.testall(count, requests, flag, statuses);
  return mcorecoll_raw_testall(count, requests, flag, statuses);
}
MCORECOLL_EXPORT int MPI_Waitany(mcorecoll_raw_t count, void* requests, void* index, void* status) {
  if (ENGINE_IDLE) return mcorecoll_fast.waitany(count, requests, index, status);
  return mcorecoll_raw_waitany(count, requests, index, status);
}
MCORECOLL_EXPORT int MPI_Testany(mcorecoll_raw_t count, void* requests, void* index, void* flag,
                                 void* status) {
  if (ENGINE_IDLE) return mcorecoll_fast.testany(count, requests, index, flag, status);
  return mcorecoll_raw_testany(count, requests, index, flag, status);
}
MCORECOLL_EXPORT int MPI_Waitsome(mcorecoll_raw_t incount, void* requests, void* outcount,
                                  void* indices, void* statuses) {
  if (ENGINE_IDLE) return mcorecoll_fast.waitsome(incount, requests, outcount, indices, statuses);
  return mcorecoll_raw_waitsome(incount, requests, outcount, indices, statuses);
}
MCORECOLL_EXPORT int MPI_Testsome(mcorecoll_raw_t incount, void* requests, void* outcount,
                                  void* indices, void* statuses) {
  if (ENGINE_IDLE) return mcorecoll_fast.testsome(incount, requests, outcount, indices, statuses);
  return mcorecoll_raw_testsome(incount, requests, outcount, indices, statuses);
}
MCORECOLL_EXPORT int MPI_Request_get_status(mcorecoll_raw_t request, void* flag, void* status) {
  if (ENGINE_IDLE) return mcorecoll_fast.request_get_status(request, flag, status);
  return mcorecoll_raw_request_get_status(request, flag, status);
}
MCORECOLL_EXPORT int MPI_Request_free(void* request) {
  if (ENGINE_IDLE) return mcorecoll_fast.request_free(request);
  return mcorecoll_raw_request_free(request);
}
MCORECOLL_EXPORT int MPI_Start(void* request) {
  if (ENGINE_IDLE) return mcorecoll_fast.start(request);
  return mcorecoll_raw_start(request);
}
MCORECOLL_EXPORT int MPI_Startall(mcorecoll_raw_t count, void* requests) {
  if (ENGINE_IDLE) return mcorecoll_fast.startall(count, requests);
  return mcorecoll_raw_startall(count, requests);
}
