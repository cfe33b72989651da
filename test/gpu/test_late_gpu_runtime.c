/* A GPU runtime loaded after a communicator's set-up (issue #42):
 *  - a communicator whose first call (its set-up, which finds the runtime) passes device
 *    memory on rank 0: the call came in before mcorecoll knew of a runtime, so it was not
 *    looked at, and must go to the MPI library on every rank (the device memory is left open
 *    here, so the check is mcorecoll's verbose reason and the values);
 *  - a communicator set up after the load must know of the runtime (mcorecoll_describe);
 *  - the world, set up before the load: its ranks agreed then that none could pass device
 *    memory, so a device buffer on it cannot be handed to the MPI library by one rank alone.
 *    mcorecoll must say so and stop the job (never touch the memory, never leave the other
 *    ranks waiting).
 *
 * Usage: test_late_gpu_runtime STANDIN_LIBRARY (np 2; MCORECOLL_SETUP_AFTER=1,
 *        MCORECOLL_BCAST=shm, MCORECOLL_VERBOSE=1). */
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int value = 7;
  MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD); /* the world's set-up: no GPU runtime yet */

  void* cuda = argc > 1 ? dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL) : NULL;
  void* (*device_alloc)(size_t, int) = cuda ? (void* (*)(size_t, int))dlsym(cuda, "standin_device_alloc") : NULL;
  void (*open_device)(void) = cuda ? (void (*)(void))dlsym(cuda, "standin_open_device_memory") : NULL;
  void (*close_device)(void) = cuda ? (void (*)(void))dlsym(cuda, "standin_close_device_memory") : NULL;
  if (!device_alloc || !open_device || !close_device) {
    fprintf(stderr, "test_late_gpu_runtime: cannot load the stand-in driver %s\n", argc > 1 ? argv[1] : "(none given)");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  /* A first call that sets its communicator up and passes device memory on rank 0. */
  MPI_Comm first;
  MPI_Comm_dup(MPI_COMM_WORLD, &first);
  int* staged = rank == 0 ? device_alloc(4096, 0) : malloc(4096);
  open_device();
  for (int i = 0; i < 16; i++) staged[i] = rank == 0 ? 5 * i : -1;
  MPI_Bcast(staged, 16, MPI_INT, 0, first);
  int wrong = 0;
  for (int i = 0; i < 16; i++) wrong |= staged[i] != 5 * i;
  close_device();
  if (wrong) printf("test_late_gpu_runtime: rank %d: the set-up call's bcast is wrong\n", rank);
  fflush(stdout);

  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Bcast(&value, 1, MPI_INT, 0, dup); /* set up after the load */
  static char text[1 << 16];
  int (*describe)(MPI_Comm, char*, int) = (int (*)(MPI_Comm, char*, int))dlsym(RTLD_DEFAULT, "mcorecoll_describe");
  if (describe && rank == 0 && describe(dup, text, sizeof text) >= 0) {
    const char* line = strstr(text, "device buffers:");
    if (line) printf("%.*s\n", (int)strcspn(line, "\n"), line);
  }
  fflush(stdout);

  int* buffer = rank == 0 ? device_alloc(4096, 0) : malloc(4096);
  MPI_Bcast(buffer, 16, MPI_INT, 0, MPI_COMM_WORLD); /* must stop the job, untouched */
  printf("test_late_gpu_runtime: the call returned\n");
  MPI_Finalize();
  return 0;
}
