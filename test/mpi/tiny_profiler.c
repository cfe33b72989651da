/* A PMPI tool as profilers are (mpiP, Darshan, Score-P): it defines MPI_Bcast, MPI_Ibcast,
 * MPI_Bcast_init (and Open MPI 4.1's MPIX_Bcast_init), MPI_Start and MPI_Wait, and the Fortran
 * mpi_bcast_ and mpi_finalize_, counts and times each call and passes it on through its profiling name
 * (PMPI_Bcast, pmpi_bcast_); at MPI_Finalize it prints its counts. Preloaded with mcorecoll
 * in either order (test/mpi/meson.build's profiler-* tests): it must count every call once,
 * and mcorecoll must serve them (its own statistics). */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

static long bcast, ibcast, bcast_init, start, wait, fortran_bcast;
static double seconds;

int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  const double t = PMPI_Wtime();
  const int rc = PMPI_Bcast(buffer, count, datatype, root, comm);
  seconds += PMPI_Wtime() - t;
  bcast++;
  return rc;
}

int MPI_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request* request) {
  ibcast++;
  return PMPI_Ibcast(buffer, count, datatype, root, comm, request);
}

#if defined(OPEN_MPI) && OMPI_MAJOR_VERSION < 5
int PMPIX_Bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request* request);
int MPIX_Bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                    MPI_Request* request) {
  bcast_init++;
  return PMPIX_Bcast_init(buffer, count, datatype, root, comm, info, request);
}
#else
int MPI_Bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                   MPI_Request* request) {
  bcast_init++;
  return PMPI_Bcast_init(buffer, count, datatype, root, comm, info, request);
}
#endif

int MPI_Start(MPI_Request* request) {
  start++;
  return PMPI_Start(request);
}

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  wait++;
  return PMPI_Wait(request, status);
}

/* Fortran's MPI_BCAST, gfortran's mangling; the MPI library's Fortran part is loaded only in a
 * Fortran program (weak: the tool links without it). */
#pragma weak pmpi_bcast_
void pmpi_bcast_(void* buffer, MPI_Fint* count, MPI_Fint* datatype, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* ierr);
void mpi_bcast_(void* buffer, MPI_Fint* count, MPI_Fint* datatype, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* ierr) {
  fortran_bcast++;
  pmpi_bcast_(buffer, count, datatype, root, comm, ierr);
}

/* One write a line: the ranks' lines reach the launcher's output whole (a printf of MPICH's was
 * cut by another rank's line). */
static void report(void) {
  int rank = 0;
  char line[256];
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int n = snprintf(line, sizeof line, "tiny_profiler: rank %d counted MPI_Bcast=%ld MPI_Ibcast=%ld MPI_Bcast_init=%ld MPI_Start=%ld MPI_Wait=%ld "
         "mpi_bcast=%ld (MPI_Bcast: %.6f s)\n",
         rank, bcast, ibcast, bcast_init, start, wait, fortran_bcast, seconds);
  fflush(stdout);
  if (n > 0 && write(1, line, (size_t)n) < 0) perror("tiny_profiler");
}

int MPI_Finalize(void) {
  report();
  return PMPI_Finalize();
}

#pragma weak pmpi_finalize_
void pmpi_finalize_(MPI_Fint* ierr);
void mpi_finalize_(MPI_Fint* ierr) {
  report();
  pmpi_finalize_(ierr);
}
