/* A full /dev/shm: after MPI_Init (the MPI library has its own shared memory by then), rank 0
 * fills /dev/shm. With POSIX segments (MCORECOLL_SEGMENT=posix) mcorecoll must then fall back
 * to the MPI library with one warning; with memfd segments it keeps its own paths. Either way
 * every result must stay right (no SIGBUS). Run it in a private mount namespace with a small tmpfs
 * on /dev/shm (full_shm.sh), never against the machine's own /dev/shm.
 * Usage: test_full_shm FILLER-PATH */
#include <fcntl.h>
#include <mpi.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0 && argc > 1) {
    struct statvfs fs;
    const int fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0 && statvfs("/dev/shm", &fs) == 0, "cannot fill /dev/shm");
    /* Leave a few pages: less than any mcorecoll segment needs. */
    off_t bytes = (off_t)fs.f_bavail * (off_t)fs.f_frsize - 8 * 4096;
    while (bytes > 0 && posix_fallocate(fd, 0, bytes) != 0) bytes -= 1 << 20;
    close(fd);
  }
  PMPI_Barrier(MPI_COMM_WORLD);

  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  for (int i = 0; i < 10; i++) CHECK(MPI_Barrier(comm) == MPI_SUCCESS, "barrier");
  int data[1000];
  for (int root = 0; root < size; root++) {
    for (int i = 0; i < 1000; i++) data[i] = rank == root ? root * 7 + i : -1;
    MPI_Bcast(data, 1000, MPI_INT, root, comm);
    for (int i = 0; i < 1000; i++) CHECK(data[i] == root * 7 + i, "bcast root %d [%d]", root, i);
  }
  int send[64], recv[64];
  for (int d = 0; d < size; d++) send[d] = rank * 100 + d;
  MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, comm);
  for (int s = 0; s < size; s++) CHECK(recv[s] == s * 100 + rank, "alltoall from %d", s);
  MPI_Comm_free(&comm);
  if (rank == 0 && argc > 1) unlink(argv[1]);
  return check_finish("test_full_shm");
}
