/* The call from which mcorecoll's paths are taken on `comm` where it was set up without waiting
 * (node/setup_window.hpp), as mcorecoll_describe() names it, counting calls from 1; 0 where it
 * was not (or mcorecoll is not loaded). Collective. Needs _GNU_SOURCE and <dlfcn.h>. */
#pragma once

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static long switch_call(MPI_Comm comm) {
  int (*describe)(MPI_Comm, char*, int) = (int (*)(MPI_Comm, char*, int))dlsym(RTLD_DEFAULT, "mcorecoll_describe");
  if (!describe) return 0;
  static char text[1 << 16];
  describe(comm, text, sizeof text);
  const char* at = strstr(text, "mcorecoll's paths from its call ");
  return at ? atol(at + strlen("mcorecoll's paths from its call ")) : 0;
}
