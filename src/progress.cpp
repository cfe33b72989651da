#include "progress.hpp"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "comm_context.hpp"
#include "config.hpp"
#include "log.hpp"
#include "wait.hpp"

namespace mcorecoll {
namespace {

// One operation and its request. Held by its queue until complete and by the MPI library's
// request until that is freed (free_fn): whichever lets go last deletes it.
struct Record {
  std::unique_ptr<Operation> op;
  const CommContext* ctx = nullptr;
  MPI_Request request = MPI_REQUEST_NULL;
  int rc = MPI_SUCCESS;
  bool freed_early = false;  // MPI_Request_free came before completion: free it on completion
  std::atomic<int> holders{2};
};

void let_go(Record* r) {
  if (r->holders.fetch_sub(1, std::memory_order_acq_rel) == 1) delete r;
}

// The generalized request's callbacks. A collective's status is empty: no source, tag or
// elements (the standard defines none for collectives); its error is the operation's.
int query_status(void* extra, MPI_Status* status) {
  const Record* r = static_cast<const Record*>(extra);
  PMPI_Status_set_elements(status, MPI_BYTE, 0);
  PMPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = r->rc;
  return r->rc;
}
int free_request(void* extra) {
  let_go(static_cast<Record*>(extra));
  return MPI_SUCCESS;
}
int cancel_request(void*, int) { return MPI_SUCCESS; }  // a collective cannot be cancelled

std::mutex g_mutex;  // guards the queues and every step
std::map<const CommContext*, std::deque<Record*>> g_queues;
std::unordered_map<MPI_Request, Record*> g_by_request;  // incomplete operations' requests
std::atomic<int> g_pending{0};
std::atomic<bool> g_oversubscribed{false};  // some pending operation's node is
std::atomic<int> g_spin_polls{0};
thread_local bool t_stepping = false;  // this thread is inside a step

// The progress thread (MCORECOLL_PROGRESS=thread): sleeps while nothing is pending.
std::thread g_thread;
std::condition_variable g_wake;
bool g_stop = false;  // under g_mutex

// Under g_mutex: the operation is complete.
void finish(Record* r) {
  r->rc = r->op->rc;
  r->op.reset();
  g_by_request.erase(r->request);
  PMPI_Grequest_complete(r->request);
  if (r->freed_early) PMPI_Request_free(&r->request);  // runs free_request
  g_pending.fetch_sub(1, std::memory_order_release);
  let_go(r);
}

// Under g_mutex: steps the queue's first operation while they complete.
void advance(std::deque<Record*>& queue) {
  t_stepping = true;
  while (!queue.empty() && queue.front()->op->step()) {
    finish(queue.front());
    queue.pop_front();
  }
  t_stepping = false;
}

void advance_all() {
  for (auto it = g_queues.begin(); it != g_queues.end();) {
    advance(it->second);
    it = it->second.empty() ? g_queues.erase(it) : std::next(it);
  }
}

void progress_thread_main() {
  unsigned polls = 0;
  std::unique_lock<std::mutex> lock(g_mutex);
  while (!g_stop) {
    if (g_pending.load(std::memory_order_acquire) == 0) {
      g_wake.wait(lock);
      polls = 0;
      continue;
    }
    const int before = g_pending.load(std::memory_order_relaxed);
    advance_all();
    lock.unlock();
    if (g_pending.load(std::memory_order_relaxed) < before) polls = 0;
    // A thread with a core of its own may spin; on an oversubscribed node it must yield.
    pause_once(polls, g_oversubscribed.load(std::memory_order_relaxed) ? 0 : g_spin_polls.load());
    lock.lock();
  }
}

// Once: the thread when MCORECOLL_PROGRESS=thread and the MPI library lets it call MPI.
void start_thread_if_asked(const Config& config, const CommContext& ctx) {
  static const bool started = [&] {
    if (config.progress != ProgressMode::thread) return false;
    int level = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&level);
    if (level < MPI_THREAD_MULTIPLE) {
      if (ctx.rank == 0)
        say_once("progress-thread", "warning: MCORECOLL_PROGRESS=thread needs MPI_THREAD_MULTIPLE "
                                    "(the program asked for less): operations progress in MPI calls");
      return false;
    }
    g_thread = std::thread(progress_thread_main);
    return true;
  }();
  (void)started;
}

}  // namespace

int start_operation(std::unique_ptr<Operation> op, const Config& config, MPI_Request* request) {
  auto* r = new Record;
  r->ctx = &op->context();
  r->op = std::move(op);
  if (r->ctx->oversubscribed) g_oversubscribed.store(true, std::memory_order_relaxed);
  g_spin_polls.store(config.spin_polls, std::memory_order_relaxed);
  const int rc = PMPI_Grequest_start(query_status, free_request, cancel_request, r, &r->request);
  if (rc != MPI_SUCCESS) {
    delete r;
    return rc;
  }
  *request = r->request;
  start_thread_if_asked(config, *r->ctx);
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_pending.fetch_add(1, std::memory_order_release);
    g_by_request[r->request] = r;
    std::deque<Record*>& queue = g_queues[r->ctx];
    queue.push_back(r);
    // Its first steps now: a message that fits the shared cells is out before the call returns.
    if (queue.size() == 1) advance(queue);
    if (queue.empty()) g_queues.erase(r->ctx);
  }
  g_wake.notify_one();
  return MPI_SUCCESS;
}

bool operations_pending() { return g_pending.load(std::memory_order_acquire) != 0; }

bool operations_pending_on(const CommContext& ctx) {
  if (!operations_pending()) return false;
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_queues.count(&ctx) != 0;
}

void progress_operations() {
  if (t_stepping || !operations_pending()) return;
  std::unique_lock<std::mutex> lock(g_mutex, std::try_to_lock);
  if (lock.owns_lock()) advance_all();
}

void progress_backoff(unsigned& polls) {
  pause_once(polls, g_oversubscribed.load(std::memory_order_relaxed)
                        ? 0u
                        : static_cast<unsigned>(g_spin_polls.load(std::memory_order_relaxed)));
}

void complete_operations_on(const CommContext& ctx) {
  for (unsigned polls = 0; operations_pending_on(ctx); progress_backoff(polls)) progress_operations();
}

void complete_all_operations() {
  for (unsigned polls = 0; operations_pending(); progress_backoff(polls)) progress_operations();
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_stop = true;
  }
  g_wake.notify_one();
  if (g_thread.joinable()) g_thread.join();
}

bool free_pending_request(MPI_Request* request) {
  if (!operations_pending() || *request == MPI_REQUEST_NULL) return false;
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = g_by_request.find(*request);
  if (it == g_by_request.end()) return false;
  it->second->freed_early = true;
  *request = MPI_REQUEST_NULL;
  return true;
}

}  // namespace mcorecoll
