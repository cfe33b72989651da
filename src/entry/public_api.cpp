// The public calls of include/mcorecoll.h.
#include "mcorecoll.h"

#include <cstring>
#include <string>

#include "decisions/config.hpp"
#include "decisions/route.hpp"
#include "entry/abi_guard.hpp"
#include "entry/learning.hpp"
#include "entry/runtime.hpp"
#include "node/comm_context.hpp"

#define MCORECOLL_EXPORT __attribute__((visibility("default")))

namespace {

int copy_out(const std::string& s, char* text, int length) {
  if (text && length > 0) {
    const std::size_t n = std::min(s.size(), static_cast<std::size_t>(length - 1));
    std::memcpy(text, s.data(), n);
    text[n] = '\0';
  }
  return static_cast<int>(s.size());
}

}  // namespace

extern "C" {

MCORECOLL_EXPORT const char* mcorecoll_version(void) { return MCORECOLL_VERSION; }

MCORECOLL_EXPORT const char* mcorecoll_mpi(void) {
#if defined(OPEN_MPI)
  return "openmpi";
#else
  return "mpich";
#endif
}

MCORECOLL_EXPORT int mcorecoll_describe(MPI_Comm comm, char* text, int length) {
  const mcorecoll::ConfigLoad& loaded = mcorecoll::process_config();
  if (!loaded.errors.empty()) {
    std::string errors;
    for (const auto& e : loaded.errors) errors += "error: " + e + "\n";
    copy_out(errors, text, length);
    return -1;
  }
  const mcorecoll::Config& config = mcorecoll::config_or_abort(comm);
  const mcorecoll::CommContext& ctx = mcorecoll::context_for(comm, config);
  return copy_out("settings:\n" + config.describe() + "decisions:\n" +
                      mcorecoll::explain_routes(config, ctx.view()) + "learned:\n" + mcorecoll::describe_learned(config) +
                      "communicator:\n" + ctx.describe(),
                  text, length);
}

MCORECOLL_EXPORT void* mcorecoll_mpi_function(const char* name) { return mcorecoll_library_lookup(name); }

}  // extern "C"
