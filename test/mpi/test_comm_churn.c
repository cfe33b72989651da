/* Communicators created and freed in a loop, each used once: open files, memory mappings,
 * resident memory and mcorecoll's shared-memory objects must not grow.
 * Usage: test_comm_churn [communicators]   (default 2000) */
#include <dirent.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int count_entries(const char* dir, const char* prefix) {
  DIR* d = opendir(dir);
  int n = 0;
  if (!d) return -1;
  for (struct dirent* e; (e = readdir(d));)
    if (e->d_name[0] != '.' && strncmp(e->d_name, prefix, strlen(prefix)) == 0) n++;
  closedir(d);
  return n;
}

static int count_lines(const char* path) {
  FILE* f = fopen(path, "r");
  int n = 0;
  if (!f) return -1;
  for (int ch; (ch = fgetc(f)) != EOF;) n += ch == '\n';
  fclose(f);
  return n;
}

static void churn(int count) {
  for (int i = 0; i < count; i++) {
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    CHECK(MPI_Barrier(c) == MPI_SUCCESS, "barrier");
    MPI_Comm_free(&c);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int count = argc > 1 ? atoi(argv[1]) : 2000;
  churn(count / 10 > 50 ? count / 10 : 50);  /* warm up: the MPI library's own caches settle */
  const int fds = count_entries("/proc/self/fd", "");
  const int maps = count_lines("/proc/self/maps");
  const int shm = count_entries("/dev/shm", "mcorecoll-");
  const long rss = resident_kib();
  churn(count);
  const long rss_after = resident_kib();
  const int fds_after = count_entries("/proc/self/fd", "");
  const int maps_after = count_lines("/proc/self/maps");
  const int shm_after = count_entries("/dev/shm", "mcorecoll-");
  CHECK(fds_after == fds, "open files grew from %d to %d", fds, fds_after);
  /* A few mappings may come and go with the allocator; a leak grows by one per communicator. */
  CHECK(maps_after <= maps + 8, "memory mappings grew from %d to %d", maps, maps_after);
  /* A context leaked per communicator (hundreds of bytes) would add megabytes. */
  CHECK(getenv("TEST_SKIP_RSS_CHECK") || rss_after - rss <= 1024, "resident memory grew from %ld KiB to %ld KiB", rss, rss_after);
  CHECK(shm_after == shm && shm == 0, "mcorecoll objects in /dev/shm: %d then %d", shm, shm_after);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    printf("test_comm_churn: %d communicators, resident %ld KiB then %ld KiB\n", count, rss, rss_after);
  return check_finish("test_comm_churn");
}
