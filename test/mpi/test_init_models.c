/* mcorecoll sets itself up lazily on the first intercepted call, so it must work whatever
 * way MPI was started: MPI_Init_thread (any level), and, where the MPI has them, MPI-4
 * sessions with a communicator made from the "mpi://WORLD" process set; `session-nonblocking`
 * uses that communicator only with non-blocking collectives (no MPI_COMM_WORLD tells where its
 * ranks are: its set-up without waiting guesses and checks, node/setup_window.hpp);
 * `session-nodes` does the same under MPI_THREAD_MULTIPLE, for a communicator across nodes, set
 * up inside MPI_Comm_create_from_group.
 * Usage: test_init_models thread|session|session-nonblocking|session-nodes */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static void exercise(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  for (int i = 0; i < 10; i++) CHECK(MPI_Barrier(comm) == MPI_SUCCESS, "barrier");
  int x[3] = {0, 0, 0};
  if (rank == size - 1) x[0] = 11, x[1] = 22, x[2] = 33;
  MPI_Bcast(x, 3, MPI_INT, size - 1, comm);
  CHECK(x[0] == 11 && x[1] == 22 && x[2] == 33, "bcast");
  int send[64], recv[64];
  for (int d = 0; d < size && d < 64; d++) send[d] = rank * 100 + d;
  MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, comm);
  for (int s = 0; s < size && s < 64; s++) CHECK(recv[s] == s * 100 + rank, "alltoall from %d", s);
}

/* Only non-blocking calls: 40 MPI_Iallreduce of rank-dependent values, each checked (sessions
 * only). */
__attribute__((unused)) static void exercise_nonblocking(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  for (int i = 0; i < 40; i++) {
    long in[2] = {rank + i, 7L * rank}, out[2] = {-1, -1};
    MPI_Request request;
    CHECK(MPI_Iallreduce(in, out, 2, MPI_LONG, MPI_SUM, comm, &request) == MPI_SUCCESS, "iallreduce %d", i);
    CHECK(MPI_Wait(&request, MPI_STATUS_IGNORE) == MPI_SUCCESS, "wait %d", i);
    const long ranks = (long)size * (size - 1) / 2;
    CHECK(out[0] == ranks + (long)i * size && out[1] == 7 * ranks, "iallreduce %d: wrong sum", i);
  }
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "thread";
  if (!strcmp(mode, "thread")) {
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    exercise(MPI_COMM_WORLD);
    return check_finish("test_init_models thread");
  }
#if MCORECOLL_MPI_HAS_SESSIONS  /* from the headers (meson.build): Open MPI 5 says MPI 3.1 */
  MPI_Session session;
  MPI_Group group;
  MPI_Comm comm;
  /* Across (pretend) nodes MPICH moves mcorecoll's operations only under MPI_THREAD_MULTIPLE. */
  MPI_Info info;
  MPI_Info_create(&info);
  if (!strcmp(mode, "session-nodes")) MPI_Info_set(info, "thread_level", "MPI_THREAD_MULTIPLE");
  MPI_Session_init(info, MPI_ERRORS_ARE_FATAL, &session);
  MPI_Info_free(&info);
  MPI_Group_from_session_pset(session, "mpi://WORLD", &group);
  MPI_Comm_create_from_group(group, "org.mcorecoll.test", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &comm);
  if (!strcmp(mode, "session-nodes")) {
    /* Set up inside MPI_Comm_create_from_group (mcorecoll_describe() says so; describing a
     * communicator not set up would set it up). */
    int (*describe)(MPI_Comm, char*, int) = (int (*)(MPI_Comm, char*, int))dlsym(RTLD_DEFAULT, "mcorecoll_describe");
    static char text[1 << 16];
    CHECK(describe && describe(comm, text, sizeof text) >= 0, "mcorecoll_describe");
    CHECK(strstr(text, "set up at its MPI_Comm_create_from_group") != NULL,
          "not set up at its MPI_Comm_create_from_group:\n%s", text);
  }
  if (!strcmp(mode, "session-nonblocking") || !strcmp(mode, "session-nodes")) exercise_nonblocking(comm);
  else exercise(comm);
  int failures = check_failures, rank;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_free(&comm);
  MPI_Group_free(&group);
  MPI_Session_finalize(&session);
  if (rank == 0) printf("test_init_models %s: %s\n", mode, failures ? "FAILED" : "passed");
  return failures ? 1 : 0;
#else
  printf("test_init_models session: this MPI has no sessions\n");
  return 77;
#endif
}
