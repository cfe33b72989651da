#include "entry/forwarded.hpp"

#include <string>

#include "common/clock.hpp"
#include "common/log.hpp"
#include "decisions/config.hpp"
#include "entry/dispatch.hpp"
#include "entry/runtime.hpp"

namespace mcorecoll {

static_assert(kForwardedCount <= kMaxForwarded, "more forwarded collectives than the statistics count (stats.hpp)");

namespace {

thread_local bool t_forwarding = false;  // this thread is inside a forwarded call

}  // namespace

ForwardedCall::ForwardedCall(int which, CallKind kind, MPI_Comm comm) {
  if (t_forwarding) return;
  t_forwarding = outermost_ = true;
  const Config& config = config_or_abort(comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm);
  if (config.verbose >= 1 && comm != MPI_COMM_NULL) {
    int rank = 0;
    PMPI_Comm_rank(comm, &rank);
    const std::string name = kForwardedNames[which];
    if (rank == 0)
      say_once(name + ":forwarded", name + " goes to the MPI library: mcorecoll has no algorithm for it (counted in "
                                           "the statistics, passed on untouched)");
  }
  if (!config.counted()) return;
  count_forwarded(which, kind);
  start_ns_ = monotonic_ns();
}

ForwardedCall::~ForwardedCall() {
  if (start_ns_) add_call_time(monotonic_ns() - start_ns_);
  if (outermost_) t_forwarding = false;
}

}  // namespace mcorecoll
