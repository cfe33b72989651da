// Messages to stderr, all prefixed "mcorecoll:".
#pragma once

#include <string>

namespace mcorecoll {

void say(const std::string& message);  // one line to stderr
// Says `message` once per process per distinct `key` (thread-safe).
void say_once(const std::string& key, const std::string& message);

}  // namespace mcorecoll
