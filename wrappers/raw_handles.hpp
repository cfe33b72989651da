// Raw entry arguments (raw_abi.h: register-sized values) back to this build's MPI types.
#pragma once

#include <type_traits>

#include "raw_abi.h"

namespace mcorecoll {

template <typename Handle>
Handle handle(mcorecoll_raw_t raw) {
  if constexpr (std::is_pointer_v<Handle>) return reinterpret_cast<Handle>(raw);
  else return static_cast<Handle>(raw);  // an int handle: the low bits of the register
}

inline int as_int(mcorecoll_raw_t raw) { return static_cast<int>(raw); }

}  // namespace mcorecoll
