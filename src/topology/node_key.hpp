// Which node a process is on, known to the process itself without any MPI call: the kernel's
// boot id (one per machine and boot) and the process's PID namespace (shared memory segments
// are opened through /proc/<pid>, and single copy names peers by pid: both need one PID
// namespace). Ranks of a communicator exchange their keys in one collective on that
// communicator, so that no communicator has to be created to find a node's ranks, which is not
// safe while other threads create communicators (Open MPI 4.1), and works without
// MPI_COMM_WORLD (sessions).
#pragma once

#include <cstdint>

namespace mcorecoll {

struct NodeKey {
  std::uint64_t boot_hi = 0, boot_lo = 0;  // /proc/sys/kernel/random/boot_id
  std::uint64_t pid_namespace = 0;         // inode of /proc/self/ns/pid
  std::uint64_t pretend = 0;               // test knob: pretend node within the machine
  bool operator==(const NodeKey& o) const {
    return boot_hi == o.boot_hi && boot_lo == o.boot_lo && pid_namespace == o.pid_namespace &&
           pretend == o.pretend;
  }
  bool operator!=(const NodeKey& o) const { return !(*this == o); }
};

// This process's key. `pretend`: the pretend node (MCORECOLL_TEST_NODE_SIZE), 0 otherwise.
// Where the boot id cannot be read, the host name stands in for it.
NodeKey this_process_node_key(std::uint64_t pretend);

}  // namespace mcorecoll
