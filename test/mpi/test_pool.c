/* The node's buffer pool (src/node/node_pool.hpp): communicators lease their ring cells and staging
 * areas from it, leases grow with the operations, and go back when communicators are freed.
 * What the pool holds is read from its memory file (allocated blocks of the memfd
 * "mcorecoll-pool" among this process's descriptors), which the MPI library's own shared
 * memory does not blur.
 *
 *   test_pool grow      one communicator, bcasts and alltoalls of growing sizes, checked; the
 *                       node's shared memory grows with them
 *   test_pool shrink    communicators that ran large operations hold memory, and give it all
 *                       back when freed
 *   test_pool exhaust   (run with a small MCORECOLL_POOL_MAX_BYTES) many communicators hold
 *                       leases until the pool is full; later ones still get correct results,
 *                       and the node's shared memory stays bounded by the pool's size
 *   test_pool threads   threads on communicators of their own lease from the pool at once
 *
 * Usage: test_pool MODE [communicators] */
#define _DEFAULT_SOURCE
#include <mpi.h>
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "byte_calls.h"
#include "check.h"

static int world_rank, world_size;

/* KiB of memory the node's pool holds now (rank 0's view of the one pool; -1: none mapped). */
static long pool_kib(void) {
  long kib = -1;
  DIR* fds = opendir("/proc/self/fd");
  struct dirent* e;
  while (fds && (e = readdir(fds)) != NULL) {
    char path[300], target[256];
    snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
    const ssize_t n = readlink(path, target, sizeof(target) - 1);
    if (n <= 0) continue;
    target[n] = '\0';
    struct stat st;
    if (strstr(target, "/memfd:mcorecoll-pool") && stat(path, &st) == 0) kib = (long)st.st_blocks / 2;
  }
  if (fds) closedir(fds);
  return kib;
}

/* The pool's memory now, agreed on every rank (rank 0 reads it). */
static long held_kib(void) {
  PMPI_Barrier(MPI_COMM_WORLD);
  long kib = pool_kib();
  PMPI_Bcast(&kib, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  return kib;
}

/* A bcast of `bytes` and an alltoall of `block`-byte blocks, checked. */
static void use(MPI_Comm comm, size_t bytes, size_t block, int salt) {
  int n;
  MPI_Comm_size(comm, &n);
  unsigned char* a = malloc(bytes + (size_t)n * block + 1);
  unsigned char* b = malloc((size_t)n * block + 1);
  checked_bcast(comm, a, bytes, salt % n, salt);
  checked_alltoall(comm, a, b, block, salt);
  free(a);
  free(b);
}

static void grow(void) {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  use(comm, 200, 8, 1);
  const long small = held_kib();
  for (int round = 0; round < 3; round++)
    for (size_t bytes = 256, block = 16; bytes <= (1u << 20); bytes *= 4, block *= 2) use(comm, bytes, block, round);
  const long large = held_kib();
  if (world_rank == 0)
    printf("test_pool: one communicator: %ld KiB after small operations, %ld KiB after large ones\n", small, large);
  CHECK(large > small, "the pool did not grow with the operations (%ld KiB, then %ld KiB)", small, large);
  MPI_Comm_free(&comm);
}

static void shrink(int count) {
  MPI_Comm* comms = malloc(sizeof(MPI_Comm) * (size_t)count);
  long held = 0, left[2] = {0, 0};
  for (int again = 0; again < 2; again++) {
    for (int c = 0; c < count; c++) {
      MPI_Comm_dup(MPI_COMM_WORLD, &comms[c]);
      use(comms[c], 256 << 10, 8 << 10, c);
    }
    held = held_kib();
    for (int c = 0; c < count; c++) MPI_Comm_free(&comms[c]);
    left[again] = held_kib();
  }
  if (world_rank == 0)
    printf("test_pool: %d communicators after large operations hold %ld KiB; %ld KiB once freed, %ld KiB after "
           "%d more\n", count, held, left[0], left[1], count);
  /* Each holds a ring of cells and staging areas: at least 64 KiB. Freed, their leases go back
   * to the kernel; their segments' few pages stay with the pool for the next communicators (at
   * most 64 KiB each at np 4 and less), so that the same number again takes no more. */
  CHECK(held >= 64L * count, "%d communicators hold only %ld KiB", count, held);
  CHECK(left[0] >= 0 && left[0] <= 64 + 64L * count, "freed communicators left %ld KiB of %ld KiB in the pool",
        left[0], held);
  CHECK(left[1] <= left[0], "%d more communicators, freed, left %ld KiB (%ld KiB after the first ones)", count,
        left[1], left[0]);
  free(comms);
}

static void exhaust(int count) {
  MPI_Comm* comms = malloc(sizeof(MPI_Comm) * (size_t)count);
  for (int c = 0; c < count; c++) {
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[c]);
    use(comms[c], 64 << 10, 4 << 10, c);
  }
  /* Every communicator again, some with larger operations than before. */
  for (int c = 0; c < count; c++) use(comms[c], (size_t)(c % 3 + 1) << 16, (size_t)(c % 3 + 1) << 12, c + 1);
  const long held = held_kib();
  const char* max = getenv("MCORECOLL_POOL_MAX_BYTES");
  const long max_kib = max ? atol(max) * (strchr(max, 'M') ? 1024 : 1) : -1;
  if (world_rank == 0)
    printf("test_pool: %d communicators with a pool of %s: the pool holds %ld KiB\n", count, max ? max : "(default)", held);
  CHECK(max_kib < 0 || (held > max_kib / 2 && held <= max_kib),
        "%d communicators: the pool holds %ld KiB, its size is %ld KiB", count, held, max_kib);
  for (int c = 0; c < count; c++) MPI_Comm_free(&comms[c]);
  free(comms);
}

typedef struct {
  int index, rounds;
  MPI_Comm comm;
} job_t;

static void* run(void* arg) {
  job_t* job = arg;
  for (int r = 0; r < job->rounds; r++) {
    const size_t bytes = (size_t)1 << (8 + (r + job->index) % 11), block = (size_t)1 << (3 + (r * 7 + job->index) % 10);
    use(job->comm, bytes, block, r + job->index);
    if (r % 10 == 9) { /* a fresh communicator now and then: leases go and come */
      MPI_Comm fresh;
      MPI_Comm_dup(job->comm, &fresh);
      use(fresh, bytes, block, r);
      MPI_Comm_free(&fresh);
    }
  }
  return NULL;
}

static void threads(int count) {
  job_t jobs[8];
  pthread_t ids[8];
  if (count > 8) count = 8;
  for (int t = 0; t < count; t++) {
    jobs[t].index = t;
    jobs[t].rounds = 40;
    MPI_Comm_dup(MPI_COMM_WORLD, &jobs[t].comm);
  }
  for (int t = 0; t < count; t++) pthread_create(&ids[t], NULL, run, &jobs[t]);
  for (int t = 0; t < count; t++) pthread_join(ids[t], NULL);
  for (int t = 0; t < count; t++) MPI_Comm_free(&jobs[t].comm);
}

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  const char* mode = argc > 1 ? argv[1] : "grow";
  const int count = argc > 2 ? atoi(argv[2]) : 16;
  if (strcmp(mode, "grow") == 0) grow();
  else if (strcmp(mode, "shrink") == 0) shrink(count);
  else if (strcmp(mode, "exhaust") == 0) exhaust(count);
  else if (strcmp(mode, "threads") == 0 && provided == MPI_THREAD_MULTIPLE) threads(count);
  else CHECK(0, "unknown mode %s (or no MPI_THREAD_MULTIPLE)", mode);
  return check_finish("test_pool");
}
