/* MPI-IO under mcorecoll: ROMIO (MPICH's, and Open MPI 4.1's io/romio321) calls the PMPI_
 * collectives itself, which mcorecoll serves since it defines those names. Each rank writes its
 * block of a file with MPI_File_write_at_all, reads its neighbour's with MPI_File_read_at_all,
 * twenty times, every value checked; the statistics then show the collectives ROMIO made (the
 * program makes no alltoall of its own).
 *
 * Usage: test_file_io PATH */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

enum { kCount = 100000, kRounds = 20 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(argc > 1, "usage: test_file_io PATH");
  int* buf = malloc(kCount * sizeof(int));
  for (int round = 0; round < kRounds && argc > 1; round++) {
    MPI_File f;
    CHECK(MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &f) == MPI_SUCCESS,
          "MPI_File_open");
    for (int i = 0; i < kCount; i++) buf[i] = rank * kCount + i + round;
    MPI_File_write_at_all(f, (MPI_Offset)rank * kCount * sizeof(int), buf, kCount, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_sync(f);
    MPI_Barrier(MPI_COMM_WORLD);
    const int other = (rank + 1) % size;
    MPI_File_read_at_all(f, (MPI_Offset)other * kCount * sizeof(int), buf, kCount, MPI_INT, MPI_STATUS_IGNORE);
    int bad = 0;
    for (int i = 0; i < kCount; i++) bad += buf[i] != other * kCount + i + round;
    CHECK(bad == 0, "round %d: %d values of rank %d's block wrong", round, bad, other);
    MPI_File_close(&f);
  }
  free(buf);
  if (rank == 0 && argc > 1) remove(argv[1]);
  return check_finish("test_file_io");
}
