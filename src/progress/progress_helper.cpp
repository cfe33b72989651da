#include "progress/progress_helper.hpp"

#include <dlfcn.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <thread>

#include "decisions/config.hpp"
#include "node/node_pool_share.hpp"
#include "node/node_shm.hpp"
#include "node/wait.hpp"
#include "progress/progress.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {
namespace {

constexpr std::uint32_t kAsleep = 1u << 31;  // set by a helper while it sleeps on its bell
// A helper that no peer can ring (no node pool) still looks at its operations this often.
constexpr long kBackstopMicroseconds = 10000;
// After a ring, the helper keeps stepping (yielding between rounds) this long before it
// sleeps again: a peer that rang once usually needs more than one step.
constexpr auto kBusyAfterRing = std::chrono::milliseconds(2);
// The helper (in thread mode) has no core of its own: it shares its rank's, or takes a spare
// one. It spins only about as long as a peer's next step takes before it yields, unlike the
// rank's own waits (MCORECOLL_SPIN_US).
constexpr int kHelperSpinMicroseconds = 5;

using ProgressCallback = int (*)();

std::once_flag g_once;
std::atomic<std::uint32_t> g_local_bell{0};   // when no peer can ring this process
std::atomic<std::uint32_t>* g_bell = nullptr;  // the helper's bell
bool g_thread_mode = false;                    // MCORECOLL_PROGRESS=thread
bool g_multiple = false;                       // the helper may call MPI
std::atomic<unsigned> g_spin{0};  // the rank's own waits on operations
unsigned g_helper_spin = 0;       // the helper's, set before it starts
std::atomic<bool> g_stop{false};
std::thread g_helper;
ProgressCallback g_hooked = nullptr;

long futex(std::atomic<std::uint32_t>* word, int op, std::uint32_t value, const timespec* timeout) {
  return syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(word), op, value, timeout, nullptr, 0);
}

// Sleeps on the bell until it is rung or `microseconds` pass (negative: no limit). True
// when it was rung.
bool sleep_on_bell(long microseconds) {
  std::atomic<std::uint32_t>& bell = *g_bell;
  const std::uint32_t before = bell.fetch_or(kAsleep, std::memory_order_acq_rel) | kAsleep;
  const timespec limit = {microseconds / 1000000, (microseconds % 1000000) * 1000};
  futex(&bell, FUTEX_WAIT, before, microseconds >= 0 ? &limit : nullptr);
  const std::uint32_t after = bell.fetch_and(~kAsleep, std::memory_order_acq_rel);
  return (after & ~kAsleep) != (before & ~kAsleep);
}

void wake(std::atomic<std::uint32_t>& bell) {
  std::uint32_t seen = bell.load(std::memory_order_acquire);
  if (!(seen & kAsleep)) return;  // awake: it steps anyway, or its application does
  if (bell.compare_exchange_strong(seen, (seen + 1) & ~kAsleep, std::memory_order_acq_rel))
    futex(&bell, FUTEX_WAKE, 1, nullptr);
}

void helper_main() {
  using Clock = std::chrono::steady_clock;
  Clock::time_point busy_until{};
  unsigned polls = 0;
  while (!g_stop.load(std::memory_order_acquire)) {
    if (!operations_pending()) {
      // Never for good: an operation posted while the helper sleeps is looked at within the
      // backstop even if no peer's ring reaches this process (a long sequence run under MPICH
      // hung with a helper asleep, its operations waiting, its application blocked in MPI).
      sleep_on_bell(kBackstopMicroseconds);
      polls = 0;
      continue;
    }
    const bool ended = progress_operations(g_multiple);
    // Below MPI_THREAD_MULTIPLE, steps that stopped only where they need MPI (across nodes, the
    // leaders' exchange) cannot move here: the rank's own next MPI call takes them. Staying
    // busy would take a core from the ranks.
    if (!g_thread_mode && !g_multiple && !ended && !last_round_waited_for_peer()) busy_until = Clock::time_point{};
    if (g_thread_mode || Clock::now() < busy_until) {
      if (ended) polls = 0;
      pause_once(polls, g_thread_mode ? std::min(g_spin.load(std::memory_order_relaxed), g_helper_spin) : 0);
      continue;
    }
    polls = 0;
    if (sleep_on_bell(kBackstopMicroseconds)) busy_until = Clock::now() + kBusyAfterRing;
  }
}

// Open MPI calls its progress callbacks in every blocking call (opal_progress): steps there
// may call MPI, as the application's thread is inside the MPI library anyway. The local ends
// of operations are left to the application's own calls.
int progress_hook() {
  progress_operations(true, false);
  return 0;
}

// Open MPI's opal_progress_register / _unregister (libopen-pal), null in other MPIs.
using Registration = int (*)(ProgressCallback);
Registration find_registration(const char* name) {
  return reinterpret_cast<Registration>(dlsym(RTLD_DEFAULT, name));
}

bool thread_multiple() {
  int level = MPI_THREAD_SINGLE;
  PMPI_Query_thread(&level);
  return level == MPI_THREAD_MULTIPLE;
}

void stop_helper() {
  if (!g_helper.joinable()) return;
  g_stop.store(true, std::memory_order_release);
  g_bell->fetch_add(1, std::memory_order_acq_rel);  // changes the word the helper may sleep on
  futex(g_bell, FUTEX_WAKE, 1, nullptr);
  g_helper.join();
}

// A process that never calls MPI_Finalize (the sessions model alone) ends with the helper still
// running: it is stopped at exit (before g_helper goes, being made after it), or the thread's
// destructor would abort the process.
struct StopAtExit {
  ~StopAtExit() { stop_helper(); }
} g_stop_at_exit;

}  // namespace

void start_progress_sources(const Config& config, const CommContext& ctx) {
  if (ctx.oversubscribed && g_spin.load(std::memory_order_relaxed) != 0) g_spin.store(0, std::memory_order_relaxed);
  static std::atomic<bool> started{false};  // the fast path of every later call: one load
  if (started.load(std::memory_order_acquire)) return;
  std::call_once(g_once, [&] {
    if (!ctx.oversubscribed) g_spin.store(spin_polls_for(config.spin_us), std::memory_order_relaxed);
    g_helper_spin = spin_polls_for(kHelperSpinMicroseconds);
    g_multiple = thread_multiple();
    g_thread_mode = config.progress == ProgressMode::thread;
    g_bell = own_bell();
    if (!g_bell) g_bell = &g_local_bell;
    if (Registration reg = find_registration("opal_progress_register"))
      if (reg(progress_hook) == 0) g_hooked = progress_hook;
    g_helper = std::thread(helper_main);
    started.store(true, std::memory_order_release);
  });
}

void stop_progress_sources() {
  if (g_hooked) {
    if (Registration unreg = find_registration("opal_progress_unregister")) unreg(g_hooked);
    g_hooked = nullptr;
  }
  stop_helper();
}

void ring(const CommContext& ctx, int node_rank) {
  if (!ctx.channel.shm || node_rank < 0 || node_rank == ctx.node_rank) return;
  const std::uint64_t slot = ctx.channel.shm->bell_slot(node_rank).load(std::memory_order_acquire);
  if (slot == 0) return;
  wake(ctx.channel.shm->pool().bell(static_cast<int>(slot - 1)));
}

unsigned progress_spin_polls() { return g_spin.load(std::memory_order_relaxed); }

bool mpi_calls_while_blocked() {
  static const bool hook = find_registration("opal_progress_register") != nullptr;  // looked up once
  return hook || thread_multiple();
}

}  // namespace mcorecoll
