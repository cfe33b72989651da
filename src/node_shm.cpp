#include "node_shm.hpp"

#include <fcntl.h>
#include <numaif.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <set>

namespace mcorecoll {
namespace {

std::atomic<unsigned long> g_serial{0};

std::string job_id() {
  for (const char* var : {"PMIX_NAMESPACE", "SLURM_JOB_ID", "PBS_JOBID"})
    if (const char* v = std::getenv(var)) return v;
  return "ppid" + std::to_string(static_cast<long>(getppid()));  // the launcher's proxy
}

// Asks for [at, at + bytes) on NUMA node `node`. False when the kernel refuses NUMA policy
// outright (EPERM/ENOSYS: restricted containers, kernels without NUMA); raw mbind because
// libnuma's wrappers print and pretend under such containers.
bool place_on(char* at, std::size_t bytes, int node) {
  unsigned long mask[16] = {0};
  if (node < 0 || node >= static_cast<int>(sizeof(mask) * 8)) return true;
  mask[node / 64] |= 1ul << (node % 64);
  return !(mbind(at, bytes, MPOL_PREFERRED, mask, sizeof(mask) * 8, 0) != 0 &&
           (errno == EPERM || errno == ENOSYS));
}

// Each rank's control page on that rank's NUMA domain (it is polled there), and the ring's
// cells spread round-robin over the domains, so that no one memory controller serves every
// reader; the small-message slots (8 KiB, read by every rank) stay where first touched. Only a
// hint: pages stay where they are if the kernel says no.
void place_pages(char* base, const std::vector<int>& numa_os, const RingGeometry& ring) {
  const std::set<int> domain_set(numa_os.begin(), numa_os.end());
  if (domain_set.size() < 2 || domain_set.count(-1)) return;
  for (std::size_t r = 0; r < numa_os.size(); ++r)
    if (!place_on(base + r * kRankBlockBytes, kRankBlockBytes, numa_os[r])) return;
  const std::vector<int> domains(domain_set.begin(), domain_set.end());
  char* cells = base + numa_os.size() * kRankBlockBytes + kSlots * kLineBytes;
  const std::size_t page = 4096, stride = ring.stride();
  for (int i = 0; i < ring.cells; ++i) {
    // Whole pages only: a page shared by two cells keeps the first placement.
    char* begin = cells + static_cast<std::size_t>(i) * stride;
    char* aligned = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(begin) + page - 1) / page * page);
    char* end = reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(begin + stride) / page * page);
    if (end > aligned && !place_on(aligned, static_cast<std::size_t>(end - aligned), domains[static_cast<std::size_t>(i) % domains.size()]))
      return;
  }
}

// How a segment is shared: an anonymous memory file that the other ranks open through the
// leader's descriptor in /proc (no name to plant, nothing a crash can leave behind), or a
// POSIX object with a name in /dev/shm, unlinked once every rank has attached.
enum class Backing { memfd, posix };

// What the leader tells the others about the segment it made.
struct SegmentAddress {
  int error = 0;
  long pid = 0;  // memfd: /proc/<pid>/fd/<fd> ...
  int fd = -1;
  std::uint64_t dev = 0, ino = 0;  // ... must be this very object
  char name[128] = {0};            // posix: the name in /dev/shm
};

// Leader: a new object, created exclusively; -1 with errno on failure.
int create_object(Backing backing, SegmentAddress* a) {
  if (backing == Backing::memfd) return memfd_create("mcorecoll-segment", MFD_CLOEXEC);
  // A name someone else holds (planted, or left by a crashed job of the same pid) is never
  // opened: take the next serial, a few times.
  int fd = -1;
  for (int attempt = 0; attempt < 8; ++attempt) {
    const std::string n = segment_name(static_cast<unsigned>(geteuid()), job_id(),
                                       static_cast<long>(getpid()), g_serial.fetch_add(1));
    std::strncpy(a->name, n.c_str(), sizeof(a->name) - 1);
    fd = shm_open(a->name, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd >= 0 || errno != EEXIST) break;
  }
  return fd;
}

// Other ranks: opens what the leader made; -1 with errno on failure.
int open_object(Backing backing, const SegmentAddress& a) {
  if (backing == Backing::posix) return shm_open(a.name, O_RDWR, 0);
  // Needs ptrace read access to the leader (same user, dumpable); refused otherwise, and then
  // the node falls back to a named object.
  const std::string path = "/proc/" + std::to_string(a.pid) + "/fd/" + std::to_string(a.fd);
  return open(path.c_str(), O_RDWR | O_CLOEXEC);
}

// Collective over `comm`: maps one segment of `bytes` per node on every rank of that node,
// made by the node's leader (communicator rank `leader`), or returns MAP_FAILED on every rank
// of the communicator with the worst errno of any rank in `*error`.
void* share(MPI_Comm comm, int leader, Backing backing, std::size_t bytes, const std::vector<int>& numa_os,
            const RingGeometry& ring, int* error) {
  int rank = 0, size = 0;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  const bool leading = rank == leader;
  SegmentAddress a;
  void* base = MAP_FAILED;
  int fd = -1;
  struct stat st;
  if (leading) {
    // Private to the user and with its space reserved, so that a full /dev/shm (or memory
    // limit) fails here, cleanly, and never later as SIGBUS.
    fd = create_object(backing, &a);
    if (fd < 0) a.error = errno;
    // Exactly 0600 whatever the umask: a umask that removes the owner's write bit would lock
    // the other ranks out (and a memfd starts at 0777).
    if (!a.error && fchmod(fd, 0600) != 0) a.error = errno;
    if (!a.error && ftruncate(fd, static_cast<off_t>(bytes)) != 0) a.error = errno;
    if (!a.error) {
      base = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      if (base == MAP_FAILED) a.error = errno;
    }
    if (!a.error) {
      place_pages(static_cast<char*>(base), numa_os, ring);
      a.error = posix_fallocate(fd, 0, static_cast<off_t>(bytes));
    }
    if (!a.error && fstat(fd, &st) != 0) a.error = errno;
    if (!a.error) {
      a.pid = static_cast<long>(getpid());
      a.fd = fd;
      a.dev = st.st_dev;
      a.ino = st.st_ino;
    }
  }
  // Every leader's address to every rank, on the application's communicator (no communicator
  // of the node's own: see node_key.hpp). Ranks of one node share an ABI.
  std::vector<SegmentAddress> addresses(static_cast<std::size_t>(size));
  PMPI_Allgather(&a, sizeof(a), MPI_BYTE, addresses.data(), sizeof(a), MPI_BYTE, comm);
  const SegmentAddress& theirs = addresses[static_cast<std::size_t>(leader)];
  int mine = theirs.error;
  if (!leading && !mine) {
    // Map only what our leader created: same object, same owner, private mode, expected size.
    fd = open_object(backing, theirs);
    if (fd < 0) mine = errno;
    else if (fstat(fd, &st) != 0) mine = errno;
    else if (st.st_uid != geteuid() || (st.st_mode & 077) != 0 ||
             static_cast<std::size_t>(st.st_size) != bytes ||
             (backing == Backing::memfd && (st.st_dev != theirs.dev || st.st_ino != theirs.ino)))
      mine = EACCES;
    if (!mine) {
      base = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      if (base == MAP_FAILED) mine = errno;
    }
  }
  // Every node must agree: ranks of a node without shared memory take PMPI, and a node leader
  // elsewhere must not wait for them in the leaders' collectives.
  PMPI_Allreduce(&mine, error, 1, MPI_INT, MPI_MAX, comm);
  // Every rank has attached or given up: the leader's descriptor and the name are done with.
  // Unlink only an object we created, never one planted under our name.
  if (fd >= 0) close(fd);
  if (leading && backing == Backing::posix && fd >= 0) shm_unlink(a.name);
  if (*error != 0 && base != MAP_FAILED) {
    munmap(base, bytes);
    base = MAP_FAILED;
  }
  return base;
}

}  // namespace

std::string segment_name(unsigned uid, const std::string& job, long pid, unsigned long serial) {
  std::string clean;
  for (char ch : job) clean += (std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_');
  return "/mcorecoll-" + std::to_string(uid) + "-" + clean + "-" + std::to_string(pid) + "-" +
         std::to_string(serial);
}

std::unique_ptr<NodeShm> NodeShm::create(MPI_Comm comm, int leader, const std::vector<int>& numa_os,
                                         const RingGeometry& ring, SegmentKind kind,
                                         std::string* why) {
  const int size = static_cast<int>(numa_os.size());
  const std::size_t bytes = static_cast<std::size_t>(size) * (kRankBlockBytes + ring.stage_bytes) +
                            kSlots * kLineBytes +
                            static_cast<std::size_t>(ring.cells) * ring.stride() + ring.inbox_bytes;
  why->clear();
  int error = 0;
  if (kind != SegmentKind::posix) {
    if (void* base = share(comm, leader, Backing::memfd, bytes, numa_os, ring, &error); base != MAP_FAILED)
      return std::unique_ptr<NodeShm>(new NodeShm(base, bytes, size, ring));
    *why = std::string("memfd segment refused (") + std::strerror(error) + ")";
    if (kind == SegmentKind::memfd) {
      *why = "cannot set up shared memory: " + *why;
      return nullptr;
    }
    *why += "; segments are POSIX shared memory in /dev/shm";
  }
  if (void* base = share(comm, leader, Backing::posix, bytes, numa_os, ring, &error); base != MAP_FAILED)
    return std::unique_ptr<NodeShm>(new NodeShm(base, bytes, size, ring));
  *why = std::string("cannot set up shared memory in /dev/shm (") + std::strerror(error) + ")";
  return nullptr;
}

NodeShm::~NodeShm() { munmap(base_, bytes_); }

}  // namespace mcorecoll
