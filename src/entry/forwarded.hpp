// The collectives mcorecoll has no algorithm for (wrappers/collectives.txt's `forward` lines:
// MPI_Alltoallw and the neighbourhood collectives, in every form): each call goes, untouched, to
// the next definition (the MPI library's), counted and timed in the statistics and explained
// once in verbose mode, so that a user sees every collective the program makes.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "decisions/stats.hpp"

namespace mcorecoll {

// For the length of one forwarded call: counts it (index `which` of the forwarded collectives)
// where the statistics are on, and adds its time when it ends; says why in verbose mode. A call
// inside one (an MPI library whose Fortran binding calls its C entry point, which mcorecoll
// intercepts too) is the same call: not counted again.
class ForwardedCall {
 public:
  ForwardedCall(int which, CallKind kind, MPI_Comm comm);
  ~ForwardedCall();
  ForwardedCall(const ForwardedCall&) = delete;
  ForwardedCall& operator=(const ForwardedCall&) = delete;

 private:
  std::uint64_t start_ns_ = 0;  // 0: not timed
  bool outermost_ = false;      // this call set the thread's flag (forwarded.cpp)
};

}  // namespace mcorecoll
