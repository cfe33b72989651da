// A communicator's scratch memory, kept from call to call and grown as calls need.
#pragma once

#include <cstddef>
#include <vector>

namespace mcorecoll {

// `v` grown to at least `bytes`; its data.
inline char* scratch_room(std::vector<char>& v, std::size_t bytes) {
  if (v.size() < bytes) v.resize(bytes);
  return v.data();
}

}  // namespace mcorecoll
