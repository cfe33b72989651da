#include "entry/abi_guard.hpp"

#include <dlfcn.h>
#include <mpi.h>

#include <cstdlib>
#include <string>

#include "common/log.hpp"
#include "decisions/config.hpp"
#include "progress/fast_path.h"


namespace mcorecoll {
namespace {

// A symbol that every release of our MPI's libmpi defines (checked with nm -D on Open MPI 4.1
// and 5.0, MPICH 4.0 and 4.2) and the other MPI's does not. MPICH 4.2 no longer exports
// MPII_Version_string; MPIR_Err_create_code is MPICH's error-code constructor, which its
// Fortran and C++ bindings call and so every MPICH libmpi (and those of the MPICH ABI) exports.
#if defined(OPEN_MPI)
constexpr const char* kBuiltFor = "Open MPI";
constexpr const char* kMarker = "ompi_mpi_comm_world";
#else
constexpr const char* kBuiltFor = "MPICH";
constexpr const char* kMarker = "MPIR_Err_create_code";
#endif

// The persistent collectives' names this build forwards to (meson.build): a release of the same
// MPI without them (Open MPI 4.1 against 5, or 5 against 4.1: one soname, libmpi.so.40) is
// another MPI for this library; its calls there would end in a symbol lookup error.
#if MCORECOLL_PERSISTENT_MPIX
constexpr const char* kPersistentMarker = "PMPIX_Barrier_init";
constexpr const char* kReleaseKind = "a release with the MPIX_X_init persistent collectives (Open MPI 4.1)";
#else
constexpr const char* kPersistentMarker = "PMPI_Barrier_init";
constexpr const char* kReleaseKind = "a release with MPI-4's persistent collectives";
#endif

bool g_foreign = false;

// The process's MPI is the first object after mcorecoll that defines PMPI_Bcast (mcorecoll
// defines it too, for the tools loaded before it); it is ours if that same object defines our
// MPI's marker. Cheap (no output, nothing allocated) when the process is a launcher or a shell
// that never uses MPI.
void detect_foreign_mpi() {
  void* pmpi = dlsym(RTLD_NEXT, "PMPI_Bcast");
  Dl_info info;
  if (!pmpi || !dladdr(pmpi, &info) || !info.dli_fname) return;
  void* owner = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  if (!owner) return;
  const bool other_mpi = dlsym(owner, kMarker) == nullptr;
  const bool other_release = !other_mpi && dlsym(owner, kPersistentMarker) == nullptr;
  dlclose(owner);
  g_foreign = other_mpi || other_release;
  if (other_mpi)
    say(std::string("warning: this libmcorecoll was built for ") + kBuiltFor +
        ", but this process runs another MPI (" + info.dli_fname +
        "); mcorecoll stays out of the way and every call goes straight to that MPI. Use the "
        "mcorecoll built for it (meson option -Dmpi).");
  if (other_release)
    say(std::string("warning: this libmcorecoll was built for ") + kBuiltFor + ", " + kReleaseKind +
        ", but this process runs another release of it (" + info.dli_fname + " has no " + kPersistentMarker +
        "); mcorecoll stays out of the way and every call goes straight to that MPI. Build mcorecoll "
        "against the MPI this program uses.");
}

__attribute__((constructor)) void decide_pass_through() {
  detect_foreign_mpi();
  g_passing_through = g_foreign || disabled_by_environment();
  // A foreign process's completion calls must reach the forwarding code: the gate stays shut.
  if (g_foreign) __atomic_store_n(&mcorecoll_fast.users, 1 << 30, __ATOMIC_RELAXED);
}

}  // namespace

bool foreign_mpi() { return g_foreign; }

bool g_passing_through = false;

void* next_definition(const char* symbol) {
  // RTLD_NEXT searches after the object that calls dlsym, which glibc finds from the return
  // address: a tail call here would make it the caller's caller (a program calling
  // mcorecoll_mpi_function() would get mcorecoll's own). The volatile keeps the call a call.
  void* volatile found = dlsym(RTLD_NEXT, symbol);
  return found;
}

namespace {

std::string object_of(void* symbol) {
  Dl_info info;
  return symbol && dladdr(symbol, &info) && info.dli_fname ? info.dli_fname : "";
}

}  // namespace

void* tool_after(const char* name, const char* profiling) {
  // A tool defines MPI_X and calls PMPI_X; the MPI library (its C or its Fortran part) defines
  // both in one object. A layer that defines only PMPI_X (the device-buffer test's emulated
  // library) is not a tool: the next MPI_X is then the MPI library's.
  void* next = dlsym(RTLD_NEXT, name);
  Dl_info where;
  if (!next || !dladdr(next, &where) || !where.dli_fname) return nullptr;
  void* object = dlopen(where.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  if (!object) return nullptr;
  void* own = dlsym(object, profiling);  // the object's own, or one of its dependencies'
  Dl_info own_where;
  const bool defines_both = own && dladdr(own, &own_where) && own_where.dli_fbase == where.dli_fbase;
  dlclose(object);
  return defines_both ? nullptr : next;
}

std::string other_tools() {
  const std::string ours = object_of(reinterpret_cast<void*>(&other_tools));
  const std::string first = object_of(dlsym(RTLD_DEFAULT, "MPI_Bcast"));
  const std::string next = object_of(tool_after("MPI_Bcast", "PMPI_Bcast"));
  if (!first.empty() && first != ours)
    return "another MPI tool, " + first + ", comes before mcorecoll: it sees the calls, and mcorecoll serves "
           "those it passes on through PMPI_";
  if (!next.empty())
    return "another MPI tool, " + next + ", comes after mcorecoll: mcorecoll hands it the calls, and serves "
           "those it passes on through PMPI_";
  return "";
}

}  // namespace mcorecoll

extern "C" void* mcorecoll_library_lookup(const char* name) {
  // The first definition in the process, unless it is mcorecoll's own: a layer ahead of
  // mcorecoll that defines PMPI_X stands in for the MPI library's (the GPU tests' emulated
  // CUDA-aware library in the executable), as it did before mcorecoll defined those names.
  void* first = dlsym(RTLD_DEFAULT, name);
  Dl_info found, ours;
  if (first && dladdr(first, &found) && dladdr(reinterpret_cast<void*>(&mcorecoll_library_lookup), &ours) &&
      found.dli_fbase != ours.dli_fbase)
    return first;
  return mcorecoll::next_definition(name);
}

extern "C" void* mcorecoll_library_symbol(const char* name) {
  void* fn = mcorecoll_library_lookup(name);
  if (!fn) {
    // Before or without MPI: nothing to end the job with but the process.
    mcorecoll::say(std::string("error: the MPI library has no ") + name +
                   ", which mcorecoll passes this call to; is libmcorecoll loaded ahead of the MPI library "
                   "(LD_PRELOAD, or -lmcorecoll before it)?");
    std::abort();
  }
  return fn;
}

extern "C" void* mcorecoll_tool_after(const char* name, const char* profiling) {
  return mcorecoll::tool_after(name, profiling);
}
