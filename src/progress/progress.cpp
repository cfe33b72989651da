#include "progress/progress.hpp"

#include <pthread.h>

#include <atomic>
#include <mutex>
#include <vector>

#include "common/clock.hpp"
#include "decisions/config.hpp"
#include "decisions/stats.hpp"
#include "node/wait.hpp"
#include "progress/fast_path.h"
#include "progress/handle_table.hpp"
#include "progress/progress_helper.hpp"
#include "progress/request_table.hpp"
#include "node/comm_context.hpp"


namespace mcorecoll {
namespace {

std::mutex g_mutex;
// The thread that holds g_mutex (a pthread_self() read is cheaper than thread-local storage in
// a shared library, which costs a __tls_get_addr call on every access).
std::atomic<pthread_t> g_owner{};
bool held_here() { return pthread_equal(g_owner.load(std::memory_order_relaxed), pthread_self()); }

// Under g_mutex.
HandleTable<MPI_Request, Record> g_table(MPI_REQUEST_NULL);  // the handles the application holds
std::vector<Record*> g_spare_records;              // records to use again (no malloc per call)
std::vector<MPI_Request> g_carriers;               // inactive carriers, for the next operation
std::vector<Record*> g_unsettled;                  // stepped: finish() left
std::vector<CommContext*> g_busy;                  // contexts whose queue is not empty

std::atomic<int> g_queued{0};     // records queued, over every communicator
// Whether a step of the last round stopped for a peer's step (waiting_on >= 0), not only for
// an MPI call or an MPI request: read by the progress helper, without the lock.
std::atomic<bool> g_waited_for_peer{false};
std::atomic<int> g_unsettled_n{0};
std::atomic<int> g_handles{0};
void (*g_delete_released)(CommContext*) = nullptr;  // set_released_context_deleter()

// A communicator's part of the engine, under g_mutex, kept on its context (its kept states):
// its queue of operations, whether it is in g_busy, its operations that ended their steps but
// not their finish(), and the persistent requests that use it (the context outlives the
// communicator's MPI_Comm_free until they are freed).
struct CommQueue {
  Record* head = nullptr;
  Record* tail = nullptr;
  bool busy = false;
  int unsettled = 0;
  int persistent_requests = 0;
  bool released = false;  // the communicator is freed; the context waits for its persistent requests
};
CommQueue& queue_of(CommContext& ctx) { return ctx.kept.get<CommQueue>(); }

// The waits of the node machinery (node/wait.hpp) move the operations while they wait: told
// how at load time, before any operation can exist.
const bool g_waits_told = [] {
  set_wait_progress(operations_pending, [] { progress_operations(); });
  return true;
}();

// Steps in a row without an end before a waiting operation rings the rank it waits for, and
// between two rings after that (progress_helper.hpp): a peer that is only a little late is
// not woken.
constexpr unsigned kFirstRing = 64;
constexpr unsigned kRingEvery = 256;
// ... and not before the wait has lasted this long: a peer that is only a little late, or waits
// for the network itself (a leader across nodes), is not woken. On a node with fewer cores
// than threads a woken helper takes a core from a rank: rung after 64 steps, the non-blocking
// barrier across pretend nodes at np 4 on 2 cores took 75-85 µs a call, blocking 26-34.
constexpr std::uint64_t kRingAfterNs = 100000;

// Carriers are persistent sends to MPI_PROC_NULL, kept for the next operation, on
// MPI_COMM_SELF; under the sessions model alone (no MPI_Init) there is none, and a carrier is
// made on the operation's own communicator, and freed after its operation.
bool g_carriers_on_self = false;  // as the last carrier made found it (under g_mutex)

MPI_Request take_carrier(MPI_Comm comm) {
  if (!g_carriers.empty()) {
    const MPI_Request c = g_carriers.back();
    g_carriers.pop_back();
    return c;
  }
  int initialized = 0, finalized = 0;
  PMPI_Initialized(&initialized);
  PMPI_Finalized(&finalized);
  g_carriers_on_self = initialized && !finalized;
  MPI_Request c = MPI_REQUEST_NULL;
  PMPI_Send_init(nullptr, 0, MPI_BYTE, MPI_PROC_NULL, 0, g_carriers_on_self ? MPI_COMM_SELF : comm, &c);
  return c;
}

// A carrier the MPI library has completed (inactive again), or never started.
void give_back_carrier(MPI_Request c) {
  if (g_carriers_on_self) g_carriers.push_back(c);
  else PMPI_Request_free(&c);
}

void forget(Record* r) {
  if (g_table.erase(r->carrier)) g_handles.fetch_sub(1, std::memory_order_release);
}

Record* new_record() {
  __atomic_add_fetch(&mcorecoll_fast.users, 1, __ATOMIC_RELAXED);
  if (g_spare_records.empty()) return new Record;
  Record* r = g_spare_records.back();
  g_spare_records.pop_back();
  return r;
}

// A record done with: its operation goes, the record waits for the next call.
void recycle(Record* r) {
  __atomic_sub_fetch(&mcorecoll_fast.users, 1, __ATOMIC_RELAXED);
  r->op.reset();
  r->ctx = nullptr;
  r->carrier = MPI_REQUEST_NULL;
  r->persistent = r->freed = false;
  r->state = RecordState::inactive;
  r->rc = MPI_SUCCESS;
  r->next = nullptr;
  r->stalled = 0;
  r->counted = StartCount{};
  if (g_spare_records.size() < 64) g_spare_records.push_back(r);
  else delete r;
}

// The record and its carrier go. A started carrier is completed first (it is complete: the
// wait returns at once), so that the pool holds inactive ones only.
void destroy(Record* r) {
  if (r->state == RecordState::started) PMPI_Wait(&r->carrier, MPI_STATUS_IGNORE);
  give_back_carrier(r->carrier);
  CommContext* ctx = r->persistent ? r->ctx : nullptr;
  recycle(r);
  // The last persistent request of a communicator the application has freed: its context goes.
  if (!ctx) return;
  CommQueue& queue = queue_of(*ctx);
  if (--queue.persistent_requests == 0 && queue.released && g_delete_released) g_delete_released(ctx);
}

void leave_busy(CommContext& ctx);

void enqueue(Record* r) {
  CommQueue& queue = queue_of(*r->ctx);
  r->next = nullptr;
  r->stalled = 0;
  r->state = RecordState::queued;
  if (queue.tail) queue.tail->next = r;
  else queue.head = r;
  queue.tail = r;
  if (!queue.busy) {
    queue.busy = true;
    g_busy.push_back(r->ctx);
  }
  g_queued.fetch_add(1, std::memory_order_release);
}

// Steps the queue's first operations while they end their steps, and past an independent
// one that waits (operation.hpp). True when one ended.
bool advance(CommContext& ctx, bool may_call_mpi) {
  bool ended = false;
  CommQueue& queue = queue_of(ctx);
  Record* before = nullptr;  // the independent one waiting last passed, if any
  for (Record* r = queue.head; r;) {
    Operation& op = *r->op;
    op.waiting_on = -1;
    if (!op.step(may_call_mpi)) {
      if (op.waiting_on >= 0) g_waited_for_peer.store(true, std::memory_order_relaxed);
      if (r->stalled++ == 0) r->stalled_since_ns = monotonic_ns();
      if (op.waiting_on >= 0 && r->stalled >= kFirstRing && (r->stalled - kFirstRing) % kRingEvery == 0 &&
          monotonic_ns() - r->stalled_since_ns >= kRingAfterNs)
        ring(ctx, op.waiting_on);
      if (!op.independent()) break;
      before = r;
      r = r->next;
      continue;
    }
    Record* after = r->next;
    (before ? before->next : queue.head) = after;
    if (queue.tail == r) queue.tail = before;
    if (!queue.head) leave_busy(ctx);
    r->next = nullptr;
    r->rc = op.rc;
    r->state = RecordState::stepped;
    ++queue.unsettled;
    g_unsettled.push_back(r);
    g_unsettled_n.fetch_add(1, std::memory_order_relaxed);
    g_queued.fetch_sub(1, std::memory_order_release);
    ended = true;
    r = after;
  }
  return ended;
}

void leave_busy(CommContext& ctx) {
  CommQueue& queue = queue_of(ctx);
  if (!queue.busy) return;
  queue.busy = false;
  for (std::size_t i = 0; i < g_busy.size(); ++i)
    if (g_busy[i] == &ctx) {
      g_busy[i] = g_busy.back();
      g_busy.pop_back();
      return;
    }
}

bool advance_all(bool may_call_mpi) {
  g_waited_for_peer.store(false, std::memory_order_relaxed);
  bool ended = false;
  for (std::size_t i = 0; i < g_busy.size();) {
    CommContext& ctx = *g_busy[i];
    ended = advance(ctx, may_call_mpi) || ended;
    if (queue_of(ctx).head) ++i;
    else leave_busy(ctx);  // the last one takes its place
  }
  return ended;
}

void settle_all() {
  for (std::size_t i = 0; i < g_unsettled.size();) {
    Record* r = g_unsettled[i];
    settle(r);  // removes r from g_unsettled when it is started or gone
    if (i < g_unsettled.size() && g_unsettled[i] == r) ++i;
  }
}

void drop_unsettled(Record* r) {
  for (std::size_t i = 0; i < g_unsettled.size(); ++i)
    if (g_unsettled[i] == r) {
      g_unsettled[i] = g_unsettled.back();
      g_unsettled.pop_back();
      g_unsettled_n.fetch_sub(1, std::memory_order_relaxed);
      return;
    }
}

}  // namespace

EngineLock::EngineLock() : lock_(g_mutex) { g_owner.store(pthread_self(), std::memory_order_relaxed); }
EngineLock::EngineLock(std::try_to_lock_t) : lock_(g_mutex, std::try_to_lock) {
  if (lock_.owns_lock()) g_owner.store(pthread_self(), std::memory_order_relaxed);
}
EngineLock::~EngineLock() {
  if (lock_.owns_lock()) g_owner.store(pthread_t{}, std::memory_order_relaxed);
}

bool inside_engine() { return held_here(); }

int handles_out() { return g_handles.load(std::memory_order_acquire); }

Record* find_record(MPI_Request handle) { return g_table.find(handle); }

bool step_record(Record* r) {
  if (r->state == RecordState::queued && advance(*r->ctx, true)) settle_all();
  return settle(r);
}

bool settle(Record* r) {
  if (r->state == RecordState::stepped) {
    r->op->finish();
    if (r->rc == MPI_SUCCESS) r->rc = r->op->rc;
    r->state = RecordState::done;
    --queue_of(*r->ctx).unsettled;
    drop_unsettled(r);
    if (r->freed) {  // the application let go of the handle: nothing waits for it
      destroy(r);
      return false;
    }
  }
  return r->state == RecordState::done || r->state == RecordState::started;
}

void start_carrier(Record* r) {
  if (r->state != RecordState::done) return;
  PMPI_Start(&r->carrier);  // completes at once: a send to MPI_PROC_NULL
  r->state = RecordState::started;
}

int retire(Record* r, MPI_Request* slot) {
  const int rc = r->rc;
  if (r->persistent) {
    r->state = RecordState::inactive;
    return rc;
  }
  forget(r);
  *slot = MPI_REQUEST_NULL;
  give_back_carrier(r->carrier);  // completed by the MPI library, or never started: inactive
  recycle(r);
  return rc;
}

int free_record(Record* r, MPI_Request* slot) {
  forget(r);
  *slot = MPI_REQUEST_NULL;
  switch (r->state) {
    case RecordState::queued:
    case RecordState::stepped:
      r->freed = true;  // its peers still need it: it goes when its steps and finish are over
      return MPI_SUCCESS;
    case RecordState::done:
    case RecordState::started:
    case RecordState::inactive:
      destroy(r);
      return MPI_SUCCESS;
  }
  return MPI_SUCCESS;
}

int start_record(Record* r) {
  if (!r->persistent || r->state != RecordState::inactive) return MPI_ERR_REQUEST;
  if (r->counted.on) count_call(r->counted.collective, r->counted.path, r->counted.bytes, CallKind::persistent);
  r->op->begin();
  r->rc = MPI_SUCCESS;
  const bool first = queue_of(*r->ctx).head == nullptr;
  enqueue(r);
  if (first && advance(*r->ctx, true)) settle_all();
  return MPI_SUCCESS;
}

void nudge_mpi_progress() {
  int initialized = 0, finalized = 0, flag = 0;
  PMPI_Initialized(&initialized);
  PMPI_Finalized(&finalized);
  // Under the sessions model alone there is no communicator of the library's to probe; the
  // steps' own tests of their requests move the MPI library there.
  if (initialized && !finalized) PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
}

int post_operation(std::unique_ptr<Operation> op, const Config& config, MPI_Request* request) {
  op->begin();
  start_progress_sources(config, op->context());
  EngineLock lock;
  Record* r = new_record();
  r->ctx = &op->context();
  r->op = std::move(op);
  r->carrier = take_carrier(r->ctx->comm);
  if (r->carrier == MPI_REQUEST_NULL) {
    recycle(r);
    return MPI_ERR_INTERN;
  }
  g_table.insert(r->carrier, r);
  g_handles.fetch_add(1, std::memory_order_release);
  *request = r->carrier;
  const bool first = queue_of(*r->ctx).head == nullptr;
  enqueue(r);
  // Its first steps now: a message that fits the shared cells is out before the call returns.
  if (first && advance(*r->ctx, true)) settle_all();
  return MPI_SUCCESS;
}

int make_persistent_request(std::unique_ptr<Operation> op, const Config& config, MPI_Request* request,
                            const StartCount& counted) {
  start_progress_sources(config, op->context());
  EngineLock lock;
  Record* r = new_record();
  r->ctx = &op->context();
  r->op = std::move(op);
  r->persistent = true;
  r->counted = counted;
  r->carrier = take_carrier(r->ctx->comm);
  if (r->carrier == MPI_REQUEST_NULL) {
    recycle(r);
    return MPI_ERR_INTERN;
  }
  ++queue_of(*r->ctx).persistent_requests;
  g_table.insert(r->carrier, r);
  g_handles.fetch_add(1, std::memory_order_release);
  *request = r->carrier;
  return MPI_SUCCESS;
}

void forget_context(CommContext& ctx) {
  if (held_here()) {  // a context deleted by the engine itself (its last persistent request went)
    leave_busy(ctx);
    return;
  }
  EngineLock lock;
  leave_busy(ctx);
}

bool operations_pending() { return g_queued.load(std::memory_order_acquire) != 0; }

bool engine_idle() {
  return g_queued.load(std::memory_order_acquire) == 0 && g_unsettled_n.load(std::memory_order_acquire) == 0;
}

bool operations_pending_on(const CommContext& ctx) {
  if (!operations_pending() && g_unsettled_n.load(std::memory_order_acquire) == 0) return false;
  EngineLock lock;
  const CommQueue* queue = ctx.kept.find<CommQueue>();
  return queue && (queue->head != nullptr || queue->unsettled > 0);
}

bool kept_for_persistent_requests(CommContext& ctx) {
  EngineLock lock;
  CommQueue& queue = queue_of(ctx);
  if (queue.persistent_requests == 0) return false;
  queue.released = true;
  return true;
}

namespace {
std::mutex g_deferred_mutex;
std::vector<std::function<void()>> g_deferred;  // after_engine()'s, under g_deferred_mutex
std::atomic<bool> g_any_deferred{false};
}  // namespace

void after_engine(std::function<void()> work) {
  if (!held_here()) {
    work();
    return;
  }
  std::lock_guard<std::mutex> lock(g_deferred_mutex);
  g_deferred.push_back(std::move(work));
  g_any_deferred.store(true, std::memory_order_release);
}

void run_deferred() {
  while (g_any_deferred.load(std::memory_order_acquire) && !held_here()) {
    std::vector<std::function<void()>> work;
    {
      std::lock_guard<std::mutex> lock(g_deferred_mutex);
      work.swap(g_deferred);
      g_any_deferred.store(false, std::memory_order_relaxed);
    }
    for (auto& w : work) w();
  }
}

bool context_released(CommContext& ctx) {
  EngineLock lock;
  return queue_of(ctx).released;
}

bool progress_operations(bool may_call_mpi, bool settle) {
  if (held_here()) return false;
  settle = settle && may_call_mpi;
  if (!operations_pending() && (!settle || g_unsettled_n.load(std::memory_order_acquire) == 0)) return false;
  EngineLock lock(std::try_to_lock);
  if (!lock.owns()) return false;
  const bool ended = advance_all(may_call_mpi);
  if (settle) settle_all();
  return ended;
}

void set_released_context_deleter(void (*deleter)(CommContext* ctx)) { g_delete_released = deleter; }

bool last_round_waited_for_peer() { return g_waited_for_peer.load(std::memory_order_relaxed); }

void progress_backoff(unsigned& polls) {
  pause_once(polls, progress_spin_polls());
  if (polls % 64 == 0) nudge_mpi_progress();
}

void complete_operations_on(const CommContext& ctx) {
  for (unsigned polls = 0; operations_pending_on(ctx); progress_backoff(polls)) progress_operations(true);
}

void complete_all_operations() {
  for (unsigned polls = 0;; progress_backoff(polls)) {
    progress_operations(true);
    if (!operations_pending() && g_unsettled_n.load(std::memory_order_acquire) == 0) break;
  }
  stop_progress_sources();
  EngineLock lock;
  // Requests the application still holds (persistent ones not freed) and the pool's carriers.
  g_table.for_each([](MPI_Request, Record* r) {
    MPI_Request c = r->carrier;
    if (r->state == RecordState::started) PMPI_Wait(&c, MPI_STATUS_IGNORE);
    PMPI_Request_free(&c);
    delete r;
    __atomic_sub_fetch(&mcorecoll_fast.users, 1, __ATOMIC_RELAXED);
  });
  g_table.clear();
  for (Record* r : g_spare_records) delete r;
  g_spare_records.clear();
  g_handles.store(0, std::memory_order_release);
  for (MPI_Request c : g_carriers) PMPI_Request_free(&c);
  g_carriers.clear();
}

}  // namespace mcorecoll
