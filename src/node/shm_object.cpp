#include "node/shm_object.hpp"

#include <fcntl.h>
#include <numaif.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace mcorecoll {
namespace {

std::atomic<unsigned long> g_serial{0};

std::string job_id() {
  for (const char* var : {"PMIX_NAMESPACE", "SLURM_JOB_ID", "PBS_JOBID"})
    if (const char* v = std::getenv(var)) return v;
  return "ppid" + std::to_string(static_cast<long>(getppid()));  // the launcher's proxy
}

// A new object, created exclusively; -1 with errno on failure.
int create_fd(Backing backing, const char* memfd_name, ShmAddress* a) {
  if (backing == Backing::memfd) return memfd_create(memfd_name, MFD_CLOEXEC);
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

}  // namespace

int make_object(Backing backing, const char* memfd_name, std::uint64_t bytes, std::uint64_t reserve,
                const std::function<void(char*)>& place, void** base, ShmAddress* a) {
  *base = MAP_FAILED;
  int fd = create_fd(backing, memfd_name, a);
  if (fd < 0) a->error = errno;
  // Exactly 0600 whatever the umask: a umask that removes the owner's write bit would lock
  // the other ranks out (and a memfd starts at 0777).
  if (!a->error && fchmod(fd, 0600) != 0) a->error = errno;
  if (!a->error && ftruncate(fd, static_cast<off_t>(bytes)) != 0) a->error = errno;
  if (!a->error) {
    *base = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (*base == MAP_FAILED) a->error = errno;
  }
  if (!a->error) {
    if (place) place(static_cast<char*>(*base));
    if (reserve) a->error = posix_fallocate(fd, 0, static_cast<off_t>(reserve));
  }
  struct stat st;
  if (!a->error && fstat(fd, &st) != 0) a->error = errno;
  if (a->error) {
    if (*base != MAP_FAILED) munmap(*base, bytes);
    *base = MAP_FAILED;
    if (fd >= 0) close(fd);
    if (fd >= 0 && backing == Backing::posix) shm_unlink(a->name);  // ours: created exclusively
    return -1;
  }
  a->pid = static_cast<long>(getpid());
  a->fd = fd;
  a->dev = st.st_dev;
  a->ino = st.st_ino;
  a->bytes = bytes;
  return fd;
}

int open_object(Backing backing, const ShmAddress& a, void** base, int* error) {
  *base = MAP_FAILED;
  *error = 0;
  int fd = -1;
  if (backing == Backing::posix) {
    fd = shm_open(a.name, O_RDWR, 0);
  } else {
    // Needs ptrace read access to the maker (same user, dumpable); refused otherwise.
    const std::string path = "/proc/" + std::to_string(a.pid) + "/fd/" + std::to_string(a.fd);
    fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  }
  struct stat st;
  if (fd < 0) *error = errno;
  else if (fstat(fd, &st) != 0) *error = errno;
  else if (st.st_uid != geteuid() || (st.st_mode & 077) != 0 ||
           static_cast<std::uint64_t>(st.st_size) != a.bytes ||
           (backing == Backing::memfd && (st.st_dev != a.dev || st.st_ino != a.ino)))
    *error = EACCES;  // not what our maker made: never map it
  if (!*error) {
    *base = mmap(nullptr, a.bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (*base == MAP_FAILED) *error = errno;
  }
  if (*error && fd >= 0) {
    close(fd);
    fd = -1;
  }
  return fd;
}

bool place_on(char* at, std::size_t bytes, int node) {
  unsigned long mask[16] = {0};
  if (node < 0 || node >= static_cast<int>(sizeof(mask) * 8)) return true;
  mask[node / 64] |= 1ul << (node % 64);
  // Raw mbind: libnuma's wrappers print and pretend under restricted containers.
  return !(mbind(at, bytes, MPOL_PREFERRED, mask, sizeof(mask) * 8, 0) != 0 &&
           (errno == EPERM || errno == ENOSYS));
}

std::string segment_name(unsigned uid, const std::string& job, long pid, unsigned long serial) {
  std::string clean;
  for (char ch : job) clean += (std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_');
  return "/mcorecoll-" + std::to_string(uid) + "-" + clean + "-" + std::to_string(pid) + "-" +
         std::to_string(serial);
}

}  // namespace mcorecoll
