// The one skeleton of the entry points, for each form, after the family's routing
// (call_decision.hpp): earlier operations on the communicator complete before a blocking call
// or a persistent initialization (they share its state, and peers may wait for them first),
// the call is counted (a persistent call's starts are counted by the engine where the path is
// mcorecoll's), then it goes to the MPI library (`pmpi`) or to the family's algorithm (`run`)
// or operation (`operation`, made only where the path is mcorecoll's; a persistent one's takes
// what its areas need first, while the initialization may wait, so that the starts find it).
#pragma once

#include <mpi.h>

#include <memory>
#include <type_traits>

#include "common/hook_flags.hpp"
#include "decisions/collective.hpp"
#include "decisions/config.hpp"
#include "decisions/stats.hpp"
#include "entry/call_decision.hpp"
#include "entry/learning.hpp"
#include "entry/reissued_operation.hpp"
#include "progress/timed_operation.hpp"

namespace mcorecoll {

template <typename Pmpi, typename Run>
int blocking_call(Collective c, const Decision& d, Pmpi pmpi, Run run) {
  complete_earlier_operations(d);
  if (d.count) count_call(c, d.path, d.bytes);
  return d.path == kPmpiPath ? pmpi() : run();
}

// A non-blocking call that is one of a class's samples while it explores (entry/learning.hpp):
// timed from its decision to the end of its steps, on either path (the MPI library's request
// wrapped as an operation of the engine's). False for any other call.
template <typename Pmpi, typename MakeOperation>
[[gnu::cold, gnu::noinline]] bool sampled_call(const Decision& d, MPI_Request* request, Pmpi pmpi,
                                               MakeOperation operation, int* rc) {
  SampleSlot slot;
  if (!take_operation_sample(&slot)) return false;
  if (d.path != kPmpiPath) {
    *rc = post(d, std::make_unique<TimedOperation>(operation(), slot), request);
    return true;
  }
  *rc = pmpi();
  if (*rc != MPI_SUCCESS || *request == MPI_REQUEST_NULL || !d.ctx) {
    drop_operation_sample(slot);
    return true;
  }
  *rc = post(d, std::make_unique<TimedOperation>(std::make_unique<LibraryOperation>(*d.ctx, *request), slot), request);
  return true;
}

template <typename Pmpi, typename MakeOperation>
int nonblocking_call(Collective c, const Decision& d, MPI_Request* request, Pmpi pmpi, MakeOperation operation) {
  CallKind kind = CallKind::nonblocking;
  if (issuing_start()) [[unlikely]] {
    note_start(d);
    kind = CallKind::persistent;
  }
  if (d.count) count_call(c, d.path, d.bytes, kind);
  if (call_hooks() & kHookLearning) [[unlikely]] {
    int rc = MPI_SUCCESS;
    if (sampled_call(d, request, pmpi, operation, &rc)) return rc;
  }
  return d.path == kPmpiPath ? pmpi() : post(d, operation(), request);
}

// A family whose persistent starts are never made as its non-blocking call.
struct NoReissue {
  ReissuedOperation::Issue operator()() const { return {}; }
};

// A persistent request whose starts are made as the collective's non-blocking call (`issue`,
// with the request's arguments), while its class learns (entry/reissued_operation.hpp); the
// operation of the path it was routed to is made too, for starts after MPI_Comm_free.
template <typename Pmpi, typename MakeOperation>
[[gnu::cold, gnu::noinline]] int reissued_call(Collective c, const Decision& d, MPI_Request* request, Pmpi pmpi,
                                               MakeOperation operation, ReissuedOperation::Issue issue) {
  std::unique_ptr<Operation> bound;
  if (d.path != kPmpiPath) {
    bound = operation();
  } else {
    if (const int rc = pmpi(); rc != MPI_SUCCESS) return rc;
    bound = std::make_unique<LibraryPersistentOperation>(*d.ctx, *request);
  }
  const int rc = make_reissued(StartCount{c, d.path, d.bytes, d.count}, *d.ctx, std::move(bound), std::move(issue), request);
  if (rc != MPI_SUCCESS) *request = MPI_REQUEST_NULL;  // the MPI library's request went with `bound`
  return rc;
}

// The persistent form. `reissue`: where the family's starts may be made as its non-blocking
// call, the call with the initialization's arguments (ReissuedOperation::Issue), made only
// where the request's class explores; it may be empty (an op the application may free), alike
// on every rank.
template <typename Pmpi, typename MakeOperation, typename MakeIssue = NoReissue>
int persistent_call(Collective c, const Decision& d, MPI_Request* request, Pmpi pmpi, MakeOperation operation,
                    MakeIssue reissue = {}) {
  complete_earlier_operations(d);
  if constexpr (!std::is_same_v<MakeIssue, NoReissue>) {
    if (d.explores && d.ctx && agrees_without_waiting(*d.ctx, process_config().config)) [[unlikely]]
      if (ReissuedOperation::Issue issue = reissue())
        return reissued_call(c, d, request, pmpi, operation, std::move(issue));
  }
  if (d.path != kPmpiPath) return make_persistent(c, d, operation(), request);
  if (d.count) count_call(c, d.path, d.bytes, CallKind::persistent);
  return pmpi();
}

// The non-blocking or the persistent form, as `form` says, for a family that writes both alike.
template <typename Pmpi, typename MakeOperation, typename MakeIssue = NoReissue>
int operation_call(Form form, Collective c, const Decision& d, MPI_Request* request, Pmpi pmpi,
                   MakeOperation operation, MakeIssue reissue = {}) {
  return form == Form::persistent ? persistent_call(c, d, request, pmpi, operation, reissue)
                                  : nonblocking_call(c, d, request, pmpi, operation);
}

}  // namespace mcorecoll
