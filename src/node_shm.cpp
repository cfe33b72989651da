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
// reader. Only a hint: pages stay where they are if the kernel says no.
void place_pages(char* base, const std::vector<int>& numa_os, const RingGeometry& ring) {
  const std::set<int> domain_set(numa_os.begin(), numa_os.end());
  if (domain_set.size() < 2 || domain_set.count(-1)) return;
  for (std::size_t r = 0; r < numa_os.size(); ++r)
    if (!place_on(base + r * kRankBlockBytes, kRankBlockBytes, numa_os[r])) return;
  const std::vector<int> domains(domain_set.begin(), domain_set.end());
  char* cells = base + numa_os.size() * kRankBlockBytes;
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

}  // namespace

std::string segment_name(unsigned uid, const std::string& job, long pid, unsigned long serial) {
  std::string clean;
  for (char ch : job) clean += (std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_');
  return "/mcorecoll-" + std::to_string(uid) + "-" + clean + "-" + std::to_string(pid) + "-" +
         std::to_string(serial);
}

std::unique_ptr<NodeShm> NodeShm::create(MPI_Comm node_comm, const std::vector<int>& numa_os,
                                         const RingGeometry& ring, std::string* why) {
  int rank = 0, size = 0;
  PMPI_Comm_rank(node_comm, &rank);
  PMPI_Comm_size(node_comm, &size);
  const std::size_t bytes = static_cast<std::size_t>(size) * (kRankBlockBytes + ring.stage_bytes) +
                            static_cast<std::size_t>(ring.cells) * ring.stride();

  // The leader creates the object exclusively, private to the user, and reserves its space
  // (so a full /dev/shm fails here, cleanly, and never later as SIGBUS).
  char name[128] = {0};
  int error = 0;
  void* base = MAP_FAILED;
  int fd = -1;
  bool created = false;  // unlink only an object we created, never one planted under our name
  if (rank == 0) {
    // A name someone else holds (planted, or left by a crashed job of the same pid) is never
    // opened: take the next serial, a few times.
    for (int attempt = 0; attempt < 8; ++attempt) {
      const std::string n = segment_name(static_cast<unsigned>(geteuid()), job_id(),
                                         static_cast<long>(getpid()), g_serial.fetch_add(1));
      std::strncpy(name, n.c_str(), sizeof(name) - 1);
      fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
      if (fd >= 0 || errno != EEXIST) break;
    }
    if (fd < 0) error = errno;
    created = fd >= 0;
    // Exactly 0600 whatever the umask: a umask that removes the owner's write bit would lock
    // the other ranks out.
    if (!error && fchmod(fd, 0600) != 0) error = errno;
    if (!error && ftruncate(fd, static_cast<off_t>(bytes)) != 0) error = errno;
    if (!error) {
      base = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      if (base == MAP_FAILED) error = errno;
    }
    if (!error) {
      place_pages(static_cast<char*>(base), numa_os, ring);
      error = posix_fallocate(fd, 0, static_cast<off_t>(bytes));
    }
  }
  PMPI_Bcast(name, sizeof(name), MPI_CHAR, 0, node_comm);
  PMPI_Bcast(&error, 1, MPI_INT, 0, node_comm);
  if (rank != 0 && !error) {
    // Open only what our leader created: same owner, private mode, expected size.
    fd = shm_open(name, O_RDWR, 0);
    struct stat st;
    if (fd < 0) error = errno;
    else if (fstat(fd, &st) != 0) error = errno;
    else if (st.st_uid != geteuid() || (st.st_mode & 077) != 0 ||
             static_cast<std::size_t>(st.st_size) != bytes)
      error = EACCES;
    if (!error) {
      base = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      if (base == MAP_FAILED) error = errno;
    }
  }
  if (fd >= 0) close(fd);
  int worst = 0;
  PMPI_Allreduce(&error, &worst, 1, MPI_INT, MPI_MAX, node_comm);
  if (created) shm_unlink(name);  // every rank has attached (or given up)
  if (worst != 0) {
    if (base != MAP_FAILED) munmap(base, bytes);
    *why = std::string("cannot set up shared memory in /dev/shm (") + std::strerror(worst) + ")";
    return nullptr;
  }
  return std::unique_ptr<NodeShm>(new NodeShm(base, bytes, size, ring));
}

NodeShm::~NodeShm() { munmap(base_, bytes_); }

}  // namespace mcorecoll
