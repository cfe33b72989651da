#include "node/single_copy.hpp"

#include <sys/prctl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "common/log.hpp"
#include "common/stop_job.hpp"

namespace mcorecoll {
namespace {

const std::uint64_t kProbe = 0x6d636f7265636f6cull;  // read by the other ranks

}  // namespace

// Under Yama's ptrace_scope 1, only a declared tracer may read us: declare any process (the
// kernel still requires the same user), as Open MPI's vader does. Other scopes: nothing to do.
// Once per process.
void allow_single_copy_readers() {
  static const bool done = [] {
    std::ifstream in("/proc/sys/kernel/yama/ptrace_scope");
    int scope = 0;
    if (in >> scope && scope == 1) prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
    return true;
  }();
  (void)done;
}

const void* single_copy_probe() { return &kProbe; }

bool can_read_probe(pid_t pid, const void* probe) {
  std::uint64_t seen = 0;
  return read_remote(pid, probe, &seen, sizeof(seen)) && seen == kProbe;
}

bool read_remote(pid_t pid, const void* remote, void* local, std::size_t bytes) {
  while (bytes > 0) {
    iovec to{local, bytes};
    iovec from{const_cast<void*>(remote), bytes};
    const ssize_t got = process_vm_readv(pid, &to, 1, &from, 1, 0);
    if (got <= 0) return false;
    remote = static_cast<const char*>(remote) + got;
    local = static_cast<char*>(local) + got;
    bytes -= static_cast<std::size_t>(got);
  }
  return true;
}

void read_remote_or_stop(MPI_Comm comm, int node_rank, pid_t pid, const void* remote, void* local,
                         std::size_t bytes, const char* setting) {
  if (read_remote(pid, remote, local, bytes)) return;
  say("error: single copy (process_vm_readv) from node rank " + std::to_string(node_rank) +
      " failed after a successful probe; stopping. Set " + setting + " above your messages.");
  stop_job(comm);
}

bool probe_single_copy(MPI_Comm comm, int leader) {
  allow_single_copy_readers();
  int rank = 0, size = 0;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  const std::uint64_t where[2] = {reinterpret_cast<std::uintptr_t>(&kProbe),
                                  static_cast<std::uint64_t>(getpid())};
  std::vector<std::uint64_t> all(2 * static_cast<std::size_t>(size));
  PMPI_Allgather(where, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, comm);
  int ok = 1;
  if (rank != leader) {
    const std::uint64_t* theirs = &all[2 * static_cast<std::size_t>(leader)];
    ok = can_read_probe(static_cast<pid_t>(theirs[1]), reinterpret_cast<const void*>(theirs[0]));
  }
  int every = 0;
  PMPI_Allreduce(&ok, &every, 1, MPI_INT, MPI_MIN, comm);
  return every == 1;
}

}  // namespace mcorecoll
