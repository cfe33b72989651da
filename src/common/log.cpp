#include "common/log.hpp"

#include <cstdio>
#include <mutex>
#include <set>

namespace mcorecoll {

void say(const std::string& message) {
  // One write per line, so lines of different ranks do not interleave mid-line.
  const std::string line = "mcorecoll: " + message + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

void say_once(const std::string& key, const std::string& message) {
  static std::mutex mutex;
  static std::set<std::string> said;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!said.insert(key).second) return;
  }
  say(message);
}

}  // namespace mcorecoll
