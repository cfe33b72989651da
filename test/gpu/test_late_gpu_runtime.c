/* A GPU runtime loaded after a communicator's set-up (issue #42): the communicator's ranks
 * agreed then that none of them could pass device memory, so a device buffer on it later
 * cannot be handed to the MPI library by one rank alone. mcorecoll must say so and stop the
 * job (never touch the memory, never leave the other ranks waiting); a communicator set up
 * after the load must know of the runtime.
 *
 * Usage: test_late_gpu_runtime STANDIN_LIBRARY (np 2; MCORECOLL_SETUP_AFTER=1,
 *        MCORECOLL_BCAST=shm). */
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
  if (!device_alloc) {
    fprintf(stderr, "test_late_gpu_runtime: cannot load the stand-in driver %s\n", argc > 1 ? argv[1] : "(none given)");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
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
