// A persistent request made while its size class still learns (entry/learning.hpp), on a
// communicator where the ranks agree without waiting: each MPI_Start is a call of its class,
// made as the collective's non-blocking call with the request's arguments, so that its starts
// follow the class's schedule and then the path its ranks agreed on, as non-blocking calls do
// (the MPI library's path is its non-blocking call too). Starts are ordered alike on every rank,
// as the standard orders a communicator's collectives, so every rank takes the same path.
// Once a start takes the path the class learned (Decision::settled), every later start would
// take it too: the request keeps that start's operation (or its own bound one, where that is the
// path) and begins it again at each start, as a bound request does, without a call.
//
// A request may be started after its communicator was freed, when no call may name it: those
// starts take `bound`, the operation the initialization made for the path it was routed to.
// (MPICH keeps a freed communicator, and calls its callback, until the MPI library's last
// request on it goes: while `bound` is such a request, the communicator lives on and the
// starts are still issued on it.)
#pragma once

#include <mpi.h>

#include <functional>
#include <memory>

#include "entry/call_hooks.hpp"
#include "progress/operation.hpp"
#include "progress/progress.hpp"

namespace mcorecoll {

class ReissuedOperation final : public Operation {
 public:
  using Issue = std::function<int(MPI_Request*)>;
  ReissuedOperation(CommContext& ctx, Issue issue, std::unique_ptr<Operation> bound, const StartCount& counted)
      : Operation(ctx), issue_(std::move(issue)), bound_(std::move(bound)), counted_(counted) {}
  bool remade() const override { return true; }
  int prepare() override;
  void begin() override;
  bool step(bool may_call_mpi) override;
  void finish() override;
  bool independent() const override { return active_ && active_->independent(); }

 private:
  Issue issue_;
  std::unique_ptr<Operation> bound_;
  std::unique_ptr<Operation> made_;  // this activation's, where the start was issued
  Operation* active_ = nullptr;      // made_, bound_, or null: nothing to do
  StartCount counted_;               // bound_'s starts, as make_persistent_request() counts them
  Operation* settled_ = nullptr;     // once settled: bound_ or made_, begun again at each start
  StartCount settled_count_{};
};

// A start's call `call` (of an MPI_Request*), inside the entry points' hooks on its buffers
// `first` and `second` (entry/call_hooks.hpp), as the application's own call would be: its
// device buffers looked at, its time and learning sample taken.
template <typename Call>
ReissuedOperation::Issue start_call(const void* first, const void* second, Call call) {
  return [first, second, call](MPI_Request* started) {
    const CallHooks hooks{first, second};
    return call(started);
  };
}

// A datatype that a request's starts name, kept for the request's life: a derived one
// duplicated (MPI_Type_dup is local), since the application may free its own once the
// initialization returned; a named one, or one the call does not look at on this rank
// (`significant` false), as it is. Shared by the copies of the start's call.
class KeptType {
 public:
  KeptType(MPI_Datatype type, bool significant);
  ~KeptType();
  KeptType(const KeptType&) = delete;
  KeptType& operator=(const KeptType&) = delete;
  MPI_Datatype type() const { return type_; }

 private:
  MPI_Datatype type_;
  bool owned_ = false;
};
using Kept = std::shared_ptr<const KeptType>;
inline Kept keep_type(MPI_Datatype type, bool significant = true) {
  return std::make_shared<const KeptType>(type, significant);
}

// The application's persistent request of a ReissuedOperation (its handle in *request); each
// start of `bound` counted as `counted` says.
int make_reissued(const StartCount& counted, CommContext& ctx, std::unique_ptr<Operation> bound,
                  ReissuedOperation::Issue issue, MPI_Request* request);

// The MPI library's own persistent request as an operation: started at each begin(), tested
// by the steps; freed with it.
class LibraryPersistentOperation final : public Operation {
 public:
  LibraryPersistentOperation(CommContext& ctx, MPI_Request request) : Operation(ctx), request_(request) {}
  ~LibraryPersistentOperation() override;
  void begin() override;
  bool step(bool may_call_mpi) override { return may_call_mpi && test_request(request_); }
  bool independent() const override { return true; }

 private:
  MPI_Request request_;
};

}  // namespace mcorecoll
