// Cross Memory Attach: a rank reads another process's memory directly (process_vm_readv), one
// copy instead of copy-in/copy-out. Only between processes of the same user (the kernel's
// ptrace access check), and only after a probe has shown that the node allows it.
#pragma once

#include <mpi.h>
#include <sys/types.h>

#include <cstddef>

namespace mcorecoll {

// Collective over `comm` (`leader`: the communicator rank of this rank's node leader). True on
// every rank when every rank of every node could read its node leader's memory; false on every
// rank otherwise (EPERM under ptrace restrictions, non-dumpable processes, kernels without CMA).
bool probe_single_copy(MPI_Comm comm, int leader);
// The probe's parts, for a set-up that exchanges its addresses with other things: this process
// lets its node's processes read it (once); the word they read; reading it from `pid`.
void allow_single_copy_readers();
const void* single_copy_probe();
bool can_read_probe(pid_t pid, const void* probe);

// Copies `bytes` from address `remote` of process `pid` into `local`. False on failure.
bool read_remote(pid_t pid, const void* remote, void* local, std::size_t bytes);

// read_remote from node rank `node_rank`, or, when the kernel refuses after a successful
// probe, says so (naming `setting`, the size bound that avoids single copy) and stops the job
// through `comm`: the peers cannot be told in time to take another path.
void read_remote_or_stop(MPI_Comm comm, int node_rank, pid_t pid, const void* remote, void* local,
                         std::size_t bytes, const char* setting);

}  // namespace mcorecoll
