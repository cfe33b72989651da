/* The shared segments are private and short-lived:
 * - rank 0 plants files under the first names its POSIX segments would get (as another local
 *   user could); mcorecoll must not open, change or remove them, and still use shared memory;
 * - with umask 0, every mcorecoll mapping is a file of this user, mode 0600, without a name
 *   (so nothing outlives the job);
 * - the segments are of the kind MCORECOLL_SEGMENT asks for: memfd unless it says posix.
 * The planted names follow src/node/node_shm.cpp (segment_name and job_id).
 * Usage: test_segment_privacy */
#define _GNU_SOURCE
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "segment_maps.h"

enum { kPlanted = 3 };
static const char kBait[] = "planted by someone else\n";

static void planted_name(int serial, char* out, size_t size) {
  const char* job = getenv("PMIX_NAMESPACE");
  char fallback[64], clean[256];
  if (!job) job = getenv("SLURM_JOB_ID");
  if (!job) job = getenv("PBS_JOBID");
  if (!job) snprintf(fallback, sizeof(fallback), "ppid%ld", (long)getppid()), job = fallback;
  size_t i = 0;
  for (; job[i] && i < sizeof(clean) - 1; i++)
    clean[i] = (job[i] >= '0' && job[i] <= '9') || (job[i] >= 'a' && job[i] <= 'z') ||
                       (job[i] >= 'A' && job[i] <= 'Z') ? job[i] : '_';
  clean[i] = '\0';
  snprintf(out, size, "/dev/shm/mcorecoll-%u-%s-%ld-%d", (unsigned)geteuid(), clean, (long)getpid(), serial);
}

/* Every mapping of an mcorecoll segment in this process: owner, mode, unlinked. Returns how
 * many there are. */
static int check_mappings(void) {
  FILE* maps = fopen("/proc/self/maps", "r");
  char line[512];
  int found = 0;
  while (maps && fgets(line, sizeof(line), maps)) {
    if (!strstr(line, MEMFD_SEGMENT) && !strstr(line, POSIX_SEGMENT) && !strstr(line, MEMFD_POOL)) continue;
    found++;
    char range[128], path[256];
    sscanf(line, "%127s", range);
    snprintf(path, sizeof(path), "/proc/self/map_files/%s", range);
    struct stat st;
    if (stat(path, &st) != 0) {
      CHECK(0, "cannot stat %s (map_files needs CAP_SYS_ADMIN)", path);
      continue;
    }
    CHECK(st.st_uid == geteuid(), "segment owned by uid %u", (unsigned)st.st_uid);
    CHECK((st.st_mode & 0777) == 0600, "segment mode %o", (unsigned)(st.st_mode & 0777));
    CHECK(st.st_nlink == 0, "segment still has a name in /dev/shm: %s", line);
  }
  if (maps) fclose(maps);
  return found;
}

int main(int argc, char** argv) {
  umask(0);
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char names[kPlanted][300];
  if (rank == 0)
    for (int s = 0; s < kPlanted; s++) {
      planted_name(s, names[s], sizeof(names[s]));
      const int fd = open(names[s], O_CREAT | O_EXCL | O_WRONLY, 0666);
      CHECK(fd >= 0, "cannot plant %s", names[s]);
      if (fd >= 0) {
        CHECK(write(fd, kBait, sizeof(kBait)) == (ssize_t)sizeof(kBait), "write");
        close(fd);
      }
    }
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  int value = rank == 0 ? 42 : 0;
  CHECK(MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS && value == 42, "bcast");
  value = rank == 0 ? 43 : 0;
  CHECK(MPI_Bcast(&value, 1, MPI_INT, 0, dup) == MPI_SUCCESS && value == 43, "bcast on a dup");
  CHECK(check_mappings() >= 1, "no mcorecoll mappings found (no shared memory used?)");
  const char* kind = getenv("MCORECOLL_SEGMENT");
  const int posix = kind && strcmp(kind, "posix") == 0;
  /* POSIX: a segment of its own per communicator; otherwise segments are carved out of the
   * node's pool (a memfd), or are memfds of their own where it has no room. */
  if (posix) CHECK(segment_maps(POSIX_SEGMENT) >= 2, "no POSIX segment mapped");
  else CHECK(segment_maps(MEMFD_POOL) + segment_maps(MEMFD_SEGMENT) >= 1, "no memfd pool or segment mapped");
  CHECK(segment_maps(posix ? MEMFD_SEGMENT : POSIX_SEGMENT) == 0, "a %s segment is mapped", posix ? "memfd" : "POSIX");
  MPI_Comm_free(&dup);
  if (rank == 0)
    for (int s = 0; s < kPlanted; s++) {
      char seen[64] = {0};
      struct stat st;
      const int fd = open(names[s], O_RDONLY);
      CHECK(fd >= 0, "the planted %s is gone", names[s]);
      if (fd < 0) continue;
      CHECK(read(fd, seen, sizeof(seen)) == (ssize_t)sizeof(kBait) && memcmp(seen, kBait, sizeof(kBait)) == 0,
            "the planted %s was changed", names[s]);
      CHECK(fstat(fd, &st) == 0 && st.st_size == (off_t)sizeof(kBait), "the planted file's size changed");
      close(fd);
      unlink(names[s]);
    }
  return check_finish("test_segment_privacy");
}
