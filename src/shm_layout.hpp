// Sizes of the shared segment's per-rank part, without MPI, so that settings can be checked
// against them (config.cpp) as well as used (node_shm.hpp).
#pragma once

#include <cstddef>

namespace mcorecoll {

constexpr std::size_t kLineBytes = 128;
constexpr std::size_t kRankBlockBytes = 4096;  // one page per rank, so mbind can place it
// Bytes a rank's bcast relay slot holds: the rest of its page after its eight control lines.
constexpr std::size_t kRelayBytes = kRankBlockBytes - 8 * kLineBytes - 8;
// Bcast: messages up to kSlotBytes travel in one-line slots (flag, then data), kSlots of them
// side by side after the ranks' pages.
constexpr std::size_t kSlots = 64;
constexpr std::size_t kSlotBytes = kLineBytes - 8;

}  // namespace mcorecoll
