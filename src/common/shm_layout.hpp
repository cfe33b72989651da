// Sizes of the shared segment's per-rank part, without MPI, so that settings can be checked
// against them (config.cpp) as well as used (node_shm.hpp).
#pragma once

#include <cstddef>

namespace mcorecoll {

constexpr std::size_t kLineBytes = 128;
constexpr std::size_t kRankBlockBytes = 4096;  // one page per rank, so mbind can place it
// A rank's page: nine control lines, then its bcast relay area (a flag, then kRelayBytes of
// data: the rest of the page).
constexpr int kRelayLine = 9;
constexpr std::size_t kRelayBytes = kRankBlockBytes - kRelayLine * kLineBytes - 8;
// The common page of a communicator's segment (its lease lines).
constexpr std::size_t kCommonBytes = 4096;
// Bcast: messages up to kSlotBytes travel in one-line slots (flag, then data), kSlots of them
// side by side after the ranks' pages.
constexpr std::size_t kSlots = 64;
constexpr std::size_t kSlotBytes = kLineBytes - 8;
// Small reductions and allgathers: records per rank, used by calls in turn, each of
// kReduceRecordBytes: the data, then the call's sequence word in the last 8 bytes
// (node/record_lines.hpp).
constexpr int kReduceLines = 4;
constexpr std::size_t kReduceRecordBytes = 2 * kLineBytes;
constexpr std::size_t kReduceLineBytes = kReduceRecordBytes - 8;  // a record's data

}  // namespace mcorecoll
