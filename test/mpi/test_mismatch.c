/* Rank 1 runs with different settings than the others (its environment changed before
 * MPI_Init, which is when mcorecoll reads them): argv[1] names the setting and argv[2] its value
 * on rank 1, e.g. MCORECOLL_BARRIER pmpi, or MCORECOLL_SETUP_AFTER 3 (which would have ranks
 * set a communicator up at different calls). The job must stop with a message instead of
 * deadlocking or mixing up collectives. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* This process's rank before MPI_Init, as the launchers tell it (Open MPI, MPICH's Hydra). */
static int launcher_rank(void) {
  const char* names[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK"};
  for (int i = 0; i < 2; i++)
    if (getenv(names[i])) return atoi(getenv(names[i]));
  return -1;
}

int main(int argc, char** argv) {
  if (argc > 2 && launcher_rank() == 1) setenv(argv[1], argv[2], 1);
  MPI_Init(&argc, &argv);
  for (int i = 0; i < 5; i++) MPI_Barrier(MPI_COMM_WORLD);
  printf("test_mismatch: the barriers returned, but the job should have stopped\n");
  MPI_Finalize();
  return 0;
}
