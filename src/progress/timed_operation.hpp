// Operations for learning in the run (entry/learning.hpp), where a class's non-blocking calls
// are its samples: an operation timed from its call's decision to the end of its steps, and the
// MPI library's own request wrapped as an operation, so that a call on either candidate is
// timed alike and its end is seen by the engine, whoever completes it (a wait, a test, the MPI
// library's progress hook, another call's steps).
#pragma once

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>

#include "common/clock.hpp"
#include "progress/operation.hpp"

namespace mcorecoll {

// Where a sample goes: its time, in ns (never 0: 0 says none), then one fewer pending. The
// learner reads the time after it sees the count drop (release, acquire).
struct SampleSlot {
  std::uint64_t* ns = nullptr;
  std::atomic<int>* pending = nullptr;
  std::uint64_t start_ns = 0;
};

class TimedOperation final : public Operation {
 public:
  TimedOperation(std::unique_ptr<Operation> inner, SampleSlot slot)
      : Operation(inner->context()), inner_(std::move(inner)), slot_(slot) {}
  // Gone without ending its steps (the engine refused it at its start): no time, and the
  // learner waits for it no longer.
  ~TimedOperation() override {
    if (slot_.ns) slot_.pending->fetch_sub(1, std::memory_order_release);
  }
  void begin() override { inner_->begin(); }
  bool independent() const override { return inner_->independent(); }
  bool step(bool may_call_mpi) override {
    const bool over = step_inner(*inner_, may_call_mpi);
    if (over && slot_.ns) {
      *slot_.ns = std::max<std::uint64_t>(1, monotonic_ns() - slot_.start_ns);
      slot_.pending->fetch_sub(1, std::memory_order_release);
      slot_.ns = nullptr;  // a persistent operation is never timed: one activation
    }
    return over;
  }
  void finish() override {
    inner_->finish();
    rc = inner_->rc;
  }

 private:
  std::unique_ptr<Operation> inner_;
  SampleSlot slot_;
};

// A non-blocking collective of the MPI library, started already (in the call, in the order
// every rank starts its collectives): its steps test it, where they may call MPI.
class LibraryOperation final : public Operation {
 public:
  LibraryOperation(CommContext& ctx, MPI_Request request) : Operation(ctx), request_(request) {}
  void begin() override {}
  bool step(bool may_call_mpi) override { return may_call_mpi && test_request(request_); }
  bool independent() const override { return true; }

 private:
  MPI_Request request_;
};

}  // namespace mcorecoll
