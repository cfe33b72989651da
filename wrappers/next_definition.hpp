// The next definition of an entry point: the MPI library's own (or the next tool's, when
// several interpose), for the calls mcorecoll passes through untouched. Looked up once, on
// first use; constant-initialized, so a function-local one costs no guard.
#pragma once

#include <mpi.h>

#include <atomic>

#include "entry/abi_guard.hpp"

namespace mcorecoll {

class NextDefinition {
 public:
  explicit constexpr NextDefinition(const char* name) : name_(name) {}

  // A C entry point: its return value, or MPI_ERR_INTERN where nothing follows us.
  template <typename... Args>
  int call_c(Args... args) {
    void* fn = resolve();
    return fn ? reinterpret_cast<int (*)(Args...)>(fn)(args...) : MPI_ERR_INTERN;
  }
  // A Fortran entry point (its error comes back through its ierr argument).
  template <typename... Args>
  void call_fortran(Args... args) {
    found_fortran(args...);
  }
  // The same; false where nothing follows us (the call then did nothing).
  template <typename... Args>
  bool found_fortran(Args... args) {
    void* fn = resolve();
    if (fn) reinterpret_cast<void (*)(Args...)>(fn)(args...);
    return fn != nullptr;
  }

 private:
  void* resolve() {
    void* fn = fn_.load(std::memory_order_acquire);
    if (!fn) {  // two threads may both look it up: they find the same
      fn = next_definition(name_);
      fn_.store(fn, std::memory_order_release);
    }
    return fn;
  }
  const char* name_;
  std::atomic<void*> fn_{nullptr};
};

// A PMPI tool (a profiler) loaded after mcorecoll that defines an entry point: mcorecoll's
// entry point hands it the call, so that the tool sees it; the tool's call of the profiling
// name (PMPI_Bcast, pmpi_bcast_) comes back to mcorecoll, which serves it there. Found once, on
// first use (entry/abi_guard.hpp's tool_after()).
class ToolAfter {
 public:
  constexpr ToolAfter(const char* name, const char* profiling) : name_(name), profiling_(profiling) {}

  bool found() {
    void* fn = fn_.load(std::memory_order_relaxed);
    if (__builtin_expect(fn == kNone, 1)) return false;  // no tool: the common path, one load
    return resolve() != kNone;
  }
  template <typename... Args>
  int call_c(Args... args) {
    return reinterpret_cast<int (*)(Args...)>(resolve())(args...);
  }
  template <typename... Args>
  void call_fortran(Args... args) {
    reinterpret_cast<void (*)(Args...)>(resolve())(args...);
  }

 private:
  static inline char none_;
  static constexpr void* kNone = &none_;
  void* resolve() {
    void* fn = fn_.load(std::memory_order_acquire);
    if (!fn) {
      fn = tool_after(name_, profiling_);
      if (!fn) fn = kNone;
      fn_.store(fn, std::memory_order_release);
    }
    return fn;
  }
  const char* name_;
  const char* profiling_;
  std::atomic<void*> fn_{nullptr};
};

}  // namespace mcorecoll
