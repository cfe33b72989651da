// A shared-memory object that one process makes and the others of its node open and map: an
// anonymous memory file (memfd) that they reach through the maker's descriptor in
// /proc/<pid>/fd (no name to plant, nothing a crash can leave behind), or a POSIX object with a
// name in /dev/shm. Private to the user (mode 0600 whatever the umask); whoever opens one
// checks that it is the very object made (owner, mode, size; memfd: device and inode).
// Used for the communicators' segments (node_shm) and the node's pool (node_pool).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace mcorecoll {

enum class Backing { memfd, posix };

// What the maker tells the others, as plain bytes (ranks of one node share an ABI).
struct ShmAddress {
  int error = 0;  // errno of the maker's failure, 0 on success
  long pid = 0;   // memfd: /proc/<pid>/fd/<fd> ...
  int fd = -1;
  std::uint64_t dev = 0, ino = 0;  // ... must be this very object
  std::uint64_t bytes = 0;
  char name[128] = {0};  // posix: the name in /dev/shm
};

// Maker: a new object of `bytes`, mapped at *base (`memfd_name`: what /proc/<pid>/maps shows
// of a memfd, "/memfd:<name> (deleted)"). `place(base)` runs before the first
// `reserve` bytes are reserved (posix_fallocate, so that a full /dev/shm or a memory limit
// fails here and never later as SIGBUS). Returns the descriptor and fills *a, or -1 with
// a->error set (nothing is left mapped or open then).
int make_object(Backing backing, const char* memfd_name, std::uint64_t bytes, std::uint64_t reserve,
                const std::function<void(char*)>& place, void** base, ShmAddress* a);

// Opener: the object `a` names, checked and mapped at *base; the descriptor, or -1 with *error.
int open_object(Backing backing, const ShmAddress& a, void** base, int* error);

// Asks for [at, at + bytes) on NUMA node `node` (a hint: false only when the kernel refuses
// NUMA policy outright, EPERM/ENOSYS: restricted containers, kernels without NUMA).
bool place_on(char* at, std::size_t bytes, int node);

// A unique, identifiable POSIX object name: user, job and creator, e.g.
// "/mcorecoll-0-1711603713-4242-3", so that a crash leaves leftovers one can attribute.
std::string segment_name(unsigned uid, const std::string& job, long pid, unsigned long serial);

}  // namespace mcorecoll
