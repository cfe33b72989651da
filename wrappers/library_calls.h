/* The library's own calls of the PMPI_ names that mcorecoll defines (PMPI_Bcast, PMPI_Wait,
 * PMPI_Init, ...) must reach the MPI library's, never mcorecoll's own: those are for a tool
 * loaded before mcorecoll (a profiler's MPI_Bcast calls PMPI_Bcast, which mcorecoll serves).
 * The linker sends every reference to such a PMPI_X in the library's objects to __wrap_PMPI_X
 * (-Wl,--wrap, wrappers/meson.build: the list is made from collectives.txt and c_runtime.c's
 * calls), which this macro defines: the MPI library's definition (mcorecoll_library_lookup()),
 * looked up once. So the sources call PMPI_X as the MPI standard names it, and the test
 * `exports` checks that no reference to a name mcorecoll defines is left for the dynamic
 * linker. No mpi.h here: raw_abi.h says why. */
#ifndef MCORECOLL_LIBRARY_CALLS_H
#define MCORECOLL_LIBRARY_CALLS_H

#ifdef __cplusplus
extern "C" {
#endif

/* The MPI library's definition of `name`: the first in the process that is not mcorecoll's
 * own (a layer ahead of mcorecoll that defines PMPI_X stands in for the MPI library), else the
 * next after mcorecoll; null where there is none. entry/abi_guard.cpp. */
void* mcorecoll_library_lookup(const char* name);
/* The same; stops the process, naming `name`, where there is none. */
void* mcorecoll_library_symbol(const char* name);
/* mcorecoll::tool_after() for C: a tool's definition of `name`, loaded after mcorecoll. */
void* mcorecoll_tool_after(const char* name, const char* profiling);

#ifdef __cplusplus
}
#endif

/* `params` and `args` parenthesized: (void* buffer, mcorecoll_raw_t count), (buffer, count). */
#define MCORECOLL_LIBRARY_CALL(name, params, args)                                      \
  int __wrap_##name params;                                                             \
  int __wrap_##name params {                                                            \
    static int(*library) params;                                                        \
    int(*call) params = __atomic_load_n(&library, __ATOMIC_ACQUIRE);                    \
    if (!call) {                                                                        \
      call = (int(*) params)mcorecoll_library_symbol(#name);                            \
      __atomic_store_n(&library, call, __ATOMIC_RELEASE);                               \
    }                                                                                   \
    return call args;                                                                   \
  }

#endif
