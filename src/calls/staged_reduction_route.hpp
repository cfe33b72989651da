// The route of the staged reductions inside one node, alike for the reduce-scatters and the
// scans (reduce_scatter_calls.cpp, scan_calls.cpp) and for their three forms.
#pragma once

#include <mpi.h>

#include <climits>
#include <cstdint>

#include "common/message_bytes.hpp"
#include "entry/call_decision.hpp"
#include "reduction/combine.hpp"
#include "reduction/element_layout.hpp"
#include "reduction/reduction_checks.hpp"

namespace mcorecoll {

// A reduction of `total` elements on every rank (its vector); every value decided here is
// equal on every rank (the standard has them pass the same counts, datatype and op).
inline Decision staged_reduction_route(Collective c, MPI_Comm comm, std::uint64_t total, MPI_Datatype type,
                                       MPI_Op op, const void* input, ElementLayout* whole, Form form) {
  std::uint64_t bytes = 0;
  if (total > static_cast<std::uint64_t>(INT_MAX) || !signature_bytes(static_cast<int>(total), type, &bytes))
    return handed_on(comm);
  Decision d = decide_node_only(c, comm, bytes, form, true);
  if (d.path == kPmpiPath) return d;
  if (bytes > kMaxShmBytes) fall_back(d, c, "2 GiB or more");
  if (const char* refusal = staged_reduction_refusal(op, type, static_cast<int>(total), bytes, whole))
    fall_back(d, c, refusal);
  if (d.path != kPmpiPath && null_buffer(input, bytes, type)) fall_back(d, c, "null buffer");
  // The other forms' steps may run where MPI may not be called, and a user op or a derived
  // type may be freed while they run: only what combine() does itself (as for iallreduce).
  if (form != Form::blocking && !combine_named_without_mpi(type, op))
    fall_back(d, c, "non-blocking or persistent: only predefined ops that mcorecoll combines itself");
  return d;
}

}  // namespace mcorecoll
