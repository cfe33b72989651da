#include "topology/node_key.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <string>

#include "common/hash.hpp"

namespace mcorecoll {

NodeKey this_process_node_key(std::uint64_t pretend) {
  NodeKey key;
  std::string boot;
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  if (!(in >> boot) || boot.empty()) {
    char host[256] = {0};
    gethostname(host, sizeof(host) - 1);
    boot = std::string("host:") + host;
  }
  // Two independent 64-bit hashes of the 128-bit id (or the host name).
  key.boot_hi = fnv1a(boot);
  key.boot_lo = fnv1a(boot, 0x9e3779b97f4a7c15ull);
  struct stat st;
  if (stat("/proc/self/ns/pid", &st) == 0) key.pid_namespace = static_cast<std::uint64_t>(st.st_ino);
  key.pretend = pretend;
  return key;
}

}  // namespace mcorecoll
