/* What kind of mcorecoll segments this process has mapped, read from /proc/self/maps: a memfd
 * shows as "/memfd:mcorecoll-segment (deleted)", a POSIX object as "/dev/shm/mcorecoll-...", the
 * node's pool (which holds the segments carved out of it) as "/memfd:mcorecoll-pool". */
#ifndef MCORECOLL_TEST_SEGMENT_MAPS_H
#define MCORECOLL_TEST_SEGMENT_MAPS_H

#include <stdio.h>
#include <string.h>

#define MEMFD_SEGMENT "/memfd:mcorecoll-segment"
#define POSIX_SEGMENT "/dev/shm/mcorecoll-"
#define MEMFD_POOL "/memfd:mcorecoll-pool"

/* Mappings whose line contains `marker`. */
static inline int segment_maps(const char* marker) {
  FILE* maps = fopen("/proc/self/maps", "r");
  char line[512];
  int found = 0;
  while (maps && fgets(line, sizeof(line), maps))
    if (strstr(line, marker)) found++;
  if (maps) fclose(maps);
  return found;
}

#endif
