// The layout of predefined (named) datatypes, remembered after the first call that uses each:
// their handles are never freed, so a remembered layout stays right, and the common case of
// every call then costs no datatype query to the MPI library (three otherwise). Insert-only and
// lock-free, for calls from many threads.
#pragma once

#include <mpi.h>

namespace mcorecoll {

struct NamedLayout {
  MPI_Aint extent = 0, true_lb = 0, true_extent = 0;
  int size = 0;
};

// The remembered layout of `type`, or null (a derived type, or a named one not seen yet).
const NamedLayout* find_named_layout(MPI_Datatype type);

// Remembers the layout of a named type (a full table remembers nothing more).
void remember_named_layout(MPI_Datatype type, const NamedLayout& layout);

}  // namespace mcorecoll
