// FNV-1a, 64 bits: the settings' fingerprint, the node key's boot id and the learned file's
// name. Stable across runs and releases: its values name files and are compared between ranks.
#pragma once

#include <cstdint>
#include <string_view>

namespace mcorecoll {

inline constexpr std::uint64_t kFnvBasis = 1469598103934665603ull;

// `s` folded into `h` (start from kFnvBasis, or another seed for a second, independent hash).
inline std::uint64_t fnv1a(std::string_view s, std::uint64_t h = kFnvBasis) {
  for (unsigned char ch : s) h = (h ^ ch) * 1099511628211ull;
  return h;
}

}  // namespace mcorecoll
