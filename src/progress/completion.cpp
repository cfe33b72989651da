#include "progress/completion.hpp"

#include <vector>

#include "progress/progress.hpp"
#include "progress/request_table.hpp"

namespace mcorecoll {
namespace {

// The records of an array's handles that are ours and active (null elsewhere).
class Ours {
 public:
  Ours(int count, const MPI_Request requests[]) : count_(count) {
    if (handles_out() == 0) return;
    EngineLock lock;
    for (int i = 0; i < count; ++i)
      if (Record* r = find_record(requests[i]); r && r->state != RecordState::inactive) {
        if (!any_) {
          if (count > kInline) spill_.assign(static_cast<std::size_t>(count), nullptr);
          any_ = true;
        }
        slot(i) = r;
      }
  }
  bool any() const { return any_; }
  Record* at(int i) const { return any_ ? const_cast<Ours*>(this)->slot(i) : nullptr; }

  // Under the engine's lock: finishes what can be; true when every one of ours is finished.
  // `start`: and their carriers started, for a call of the MPI library over the whole array.
  bool all_finished(bool start) const {
    bool all = true;
    for (int i = 0; i < count_ && any_; ++i) {
      Record* r = at(i);
      if (!r) continue;
      if (!settle(r)) all = false;
      else if (start) start_carrier(r);
    }
    return all;
  }

 private:
  static constexpr int kInline = 8;  // arrays this short need no allocation
  Record*& slot(int i) {
    return count_ > kInline ? spill_[static_cast<std::size_t>(i)] : inline_[i];
  }
  int count_;
  bool any_ = false;
  Record* inline_[kInline] = {};
  std::vector<Record*> spill_;
};

bool ignored(const MPI_Status* status) { return status == MPI_STATUS_IGNORE; }

// The status of a finished collective: no source, tag or elements (the standard defines none),
// and its error.
void empty_status(MPI_Status* status, int rc) {
  if (ignored(status)) return;
  PMPI_Status_set_elements(status, MPI_BYTE, 0);
  PMPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = rc;
}

// Under the engine's lock, r finished: completes it for the application, with its status, by
// itself (its carrier never started) or through the MPI library (started for an earlier call).
// Returns the error code of the call.
int complete_finished(Record* r, MPI_Request* slot, MPI_Status* status) {
  int rc = MPI_SUCCESS;
  if (r->state == RecordState::started) rc = PMPI_Wait(slot, status);  // at once
  else empty_status(status, r->rc);
  const int failed = retire(r, slot);
  if (failed != MPI_SUCCESS) {
    if (!ignored(status)) status->MPI_ERROR = failed;
    return failed;
  }
  return rc;
}


// After the MPI library completed the carrier of r in `slot`: the handle settled, and the
// operation's error put where the application looks for it. Returns the error, or MPI_SUCCESS.
int after_completion(Record* r, MPI_Request* slot, MPI_Status* status) {
  int rc;
  {
    EngineLock lock;
    rc = retire(r, slot);
  }
  if (rc != MPI_SUCCESS && status && !ignored(status)) status->MPI_ERROR = rc;
  return rc;
}

// An array call's result when some of our operations failed: MPI_ERR_IN_STATUS, every status
// saying its own outcome.
int array_error(int rc, int failed, int count, MPI_Status statuses[], const int errors[]) {
  if (failed == 0) return rc;
  if (statuses != MPI_STATUSES_IGNORE && rc != MPI_ERR_IN_STATUS)
    for (int i = 0; i < count; ++i) statuses[i].MPI_ERROR = errors[i];
  return MPI_ERR_IN_STATUS;
}

// Steps, settles, backs off, until `ready()`.
template <typename Ready>
void wait_until(Ready ready) {
  for (unsigned polls = 0;; progress_backoff(polls)) {
    progress_operations();
    if (ready()) return;
  }
}


}  // namespace

// One request of ours, under one hold of the engine's lock: steps for its queue, and once its
// operation is over, its completion for the application.
enum class One { not_ours, not_yet, completed };
One complete_one(MPI_Request* request, MPI_Status* status, int* rc) {
  EngineLock lock;
  Record* r = find_record(*request);
  if (!r || r->state == RecordState::inactive) return One::not_ours;
  if (!step_record(r)) return One::not_yet;
  *rc = complete_finished(r, request, status);
  return One::completed;
}

int wait(MPI_Request* request, MPI_Status* status) {
  if (handles_out() == 0) return PMPI_Wait(request, status);
  int rc = MPI_SUCCESS;
  for (unsigned polls = 0;; progress_backoff(polls)) {
    const One got = complete_one(request, status, &rc);
    if (got == One::not_ours) return PMPI_Wait(request, status);
    if (got == One::completed) {
      run_deferred();  // what completing it left (progress.hpp)
      return rc;
    }
    progress_operations();
  }
}

int test(MPI_Request* request, int* flag, MPI_Status* status) {
  if (handles_out() == 0) {
    progress_operations();
    return PMPI_Test(request, flag, status);
  }
  int rc = MPI_SUCCESS;
  const One got = complete_one(request, status, &rc);
  if (got == One::completed) {
    *flag = 1;
    run_deferred();  // what completing it left (progress.hpp)
    return rc;
  }
  progress_operations();
  if (got == One::not_ours) return PMPI_Test(request, flag, status);
  *flag = 0;
  nudge_mpi_progress();  // the application may loop on this alone: keep the MPI library moving
  return MPI_SUCCESS;
}

namespace {

// After the MPI library's Waitall/Testall completed every request (rc its answer): our
// requests' local ends, and every request's error where the answer asks for them.
int after_all_completed(const Ours& ours, int count, MPI_Request requests[], MPI_Status statuses[], int rc) {
  std::vector<int> errors(static_cast<std::size_t>(count), MPI_SUCCESS);
  int failed = 0;
  for (int i = 0; i < count; ++i)
    if (Record* r = ours.at(i)) {
      errors[static_cast<std::size_t>(i)] = after_completion(r, &requests[i], nullptr);
      if (errors[static_cast<std::size_t>(i)] != MPI_SUCCESS) ++failed;
    } else if (statuses != MPI_STATUSES_IGNORE && rc == MPI_ERR_IN_STATUS) {
      errors[static_cast<std::size_t>(i)] = statuses[i].MPI_ERROR;
    }
  run_deferred();  // what completing them left (progress.hpp)
  return array_error(rc, failed, count, statuses, errors.data());
}

}  // namespace

int waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  const Ours ours(count, requests);
  if (!ours.any()) return PMPI_Waitall(count, requests, statuses);
  wait_until([&] {
    EngineLock lock;
    return ours.all_finished(true);
  });
  const int rc = PMPI_Waitall(count, requests, statuses);
  return after_all_completed(ours, count, requests, statuses, rc);
}

int testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  progress_operations();
  const Ours ours(count, requests);
  if (!ours.any()) return PMPI_Testall(count, requests, flag, statuses);
  bool started;
  {
    EngineLock lock;
    started = ours.all_finished(true);
  }
  if (!started) {  // Testall completes all or nothing
    *flag = 0;
    nudge_mpi_progress();
    return MPI_SUCCESS;
  }
  const int rc = PMPI_Testall(count, requests, flag, statuses);
  if (!*flag) return rc;
  return after_all_completed(ours, count, requests, statuses, rc);
}

namespace {

// The any and some calls never show the MPI library a carrier of ours (MPICH 4.0 would count a
// started send to MPI_PROC_NULL as inactive there, Open MPI as complete): a finished one of ours
// is completed by itself, and the MPI library tests the application's own requests.

// Completes the first of ours that is finished: true, with its index, or false.
bool complete_one_of_ours(const Ours& ours, int count, MPI_Request requests[], int* index, MPI_Status* status,
                          int* rc) {
  EngineLock lock;
  for (int i = 0; i < count; ++i) {
    Record* r = ours.at(i);
    if (!r || (r->state != RecordState::done && r->state != RecordState::started)) continue;
    *rc = complete_finished(r, &requests[i], status);
    *index = i;
    return true;
  }
  return false;
}

// The application's array with all of ours left out, for the MPI library.
std::vector<MPI_Request> without_ours(const Ours& ours, int count, const MPI_Request requests[]) {
  std::vector<MPI_Request> copy(requests, requests + count);
  for (int i = 0; i < count; ++i)
    if (ours.at(i)) copy[static_cast<std::size_t>(i)] = MPI_REQUEST_NULL;
  return copy;
}

// One try of Testany. True when it is over: one completed (*index), or nothing active is left
// (MPI_UNDEFINED), or an error.
bool try_any(const Ours& ours, int count, MPI_Request requests[], int* index, MPI_Status* status, int* rc) {
  bool running = false;
  {
    EngineLock lock;
    running = !ours.all_finished(false);
  }
  if (complete_one_of_ours(ours, count, requests, index, status, rc)) return true;
  std::vector<MPI_Request> copy = without_ours(ours, count, requests);
  int flag = 0;
  *rc = PMPI_Testany(count, copy.data(), index, &flag, status);
  if (*rc != MPI_SUCCESS) return true;
  if (!flag) return false;
  if (*index == MPI_UNDEFINED) return !running;  // nothing active but ours, still running
  requests[*index] = copy[static_cast<std::size_t>(*index)];
  return true;
}

// One try of Testsome. True when it is over.
bool try_some(const Ours& ours, int count, MPI_Request requests[], int* outcount, int indices[],
              MPI_Status statuses[], int* rc) {
  const bool ignore = statuses == MPI_STATUSES_IGNORE;
  int n = 0, failed = 0;
  bool running = false;
  *rc = MPI_SUCCESS;
  {
    EngineLock lock;
    running = !ours.all_finished(false);
    for (int i = 0; i < count; ++i) {
      Record* r = ours.at(i);
      if (!r || (r->state != RecordState::done && r->state != RecordState::started)) continue;
      MPI_Status* status = ignore ? MPI_STATUS_IGNORE : &statuses[n];
      if (complete_finished(r, &requests[i], status) != MPI_SUCCESS) ++failed;
      indices[n++] = i;
    }
  }
  std::vector<MPI_Request> copy = without_ours(ours, count, requests);
  int theirs = 0;
  const int tested = PMPI_Testsome(count, copy.data(), &theirs, indices + n, ignore ? MPI_STATUSES_IGNORE : statuses + n);
  if (tested != MPI_SUCCESS && tested != MPI_ERR_IN_STATUS) {
    *rc = tested;
    *outcount = n;
    return true;
  }
  if (tested == MPI_ERR_IN_STATUS) ++failed;
  if (theirs == MPI_UNDEFINED) {
    if (n == 0 && !running) {  // nothing active at all
      *outcount = MPI_UNDEFINED;
      return true;
    }
    theirs = 0;
  }
  for (int k = n; k < n + theirs; ++k) requests[indices[k]] = copy[static_cast<std::size_t>(indices[k])];
  *outcount = n + theirs;
  if (failed) *rc = MPI_ERR_IN_STATUS;
  return *outcount > 0;
}

}  // namespace

int waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  const Ours ours(count, requests);
  if (!ours.any()) return PMPI_Waitany(count, requests, index, status);
  int rc = MPI_SUCCESS;
  wait_until([&] { return try_any(ours, count, requests, index, status, &rc); });
  run_deferred();  // what completing it left (progress.hpp)
  return rc;
}

int testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  progress_operations();
  const Ours ours(count, requests);
  if (!ours.any()) return PMPI_Testany(count, requests, index, flag, status);
  int rc = MPI_SUCCESS;
  *flag = try_any(ours, count, requests, index, status, &rc) ? 1 : 0;
  if (!*flag) {
    *index = MPI_UNDEFINED;
    nudge_mpi_progress();  // the MPI library's own Testany would have: an all-null array does not
  }
  run_deferred();
  return rc;
}

int waitsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  const Ours ours(incount, requests);
  if (!ours.any()) return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
  int rc = MPI_SUCCESS;
  wait_until([&] { return try_some(ours, incount, requests, outcount, indices, statuses, &rc); });
  run_deferred();
  return rc;
}

int testsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  progress_operations();
  const Ours ours(incount, requests);
  if (!ours.any()) return PMPI_Testsome(incount, requests, outcount, indices, statuses);
  int rc = MPI_SUCCESS;
  if (!try_some(ours, incount, requests, outcount, indices, statuses, &rc)) nudge_mpi_progress();
  run_deferred();
  return rc;
}

int request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  progress_operations();
  bool ours = false;
  if (handles_out() != 0) {
    EngineLock lock;
    if (Record* r = find_record(request); r && r->state != RecordState::inactive) {
      ours = true;
      *flag = settle(r) ? 1 : 0;
      if (*flag) empty_status(status, r->rc);  // looked at, not completed
    }
  }
  if (!ours) return PMPI_Request_get_status(request, flag, status);
  if (!*flag) nudge_mpi_progress();
  return MPI_SUCCESS;
}

int request_free(MPI_Request* request) {
  if (handles_out() != 0) {
    int rc = MPI_SUCCESS;
    bool ours = false;
    {
      EngineLock lock;
      if (Record* r = find_record(*request)) ours = true, rc = free_record(r, request);
    }
    if (ours) {
      run_deferred();  // what freeing it left (progress.hpp)
      return rc;
    }
  }
  return PMPI_Request_free(request);
}

int start(MPI_Request* request) {
  if (handles_out() != 0) {
    Operation* remade = nullptr;
    {
      EngineLock lock;
      Record* r = find_record(*request);
      if (r && !r->op->remade()) return start_record(r);
      if (r && r->state != RecordState::inactive) return MPI_ERR_REQUEST;
      if (r) remade = r->op.get();
    }
    if (remade) {
      run_deferred();
      if (const int rc = remade->prepare(); rc != MPI_SUCCESS) return rc;
      EngineLock lock;
      Record* r = find_record(*request);
      return r ? start_record(r) : MPI_ERR_REQUEST;
    }
  }
  return PMPI_Start(request);
}

int startall(int count, MPI_Request requests[]) {
  if (handles_out() == 0) return PMPI_Startall(count, requests);
  for (int i = 0; i < count; ++i)
    if (const int rc = start(&requests[i]); rc != MPI_SUCCESS) return rc;
  return MPI_SUCCESS;
}

}  // namespace mcorecoll
