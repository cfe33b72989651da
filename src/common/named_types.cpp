#include "common/named_types.hpp"

#include <atomic>
#include <cstdint>
#include <type_traits>

namespace mcorecoll {
namespace {

// Open MPI's handles are pointers, MPICH's are ints; neither is ever 0 for a named type.
template <typename Handle>
std::uintptr_t key_of(Handle type) {
  if constexpr (std::is_pointer_v<Handle>) return reinterpret_cast<std::uintptr_t>(type);
  else return static_cast<std::uintptr_t>(static_cast<unsigned>(type));
}

constexpr std::size_t kSlots = 256;  // the standard has about 70 named types
constexpr std::uintptr_t kEmpty = 0, kClaimed = ~std::uintptr_t{0};

struct Slot {
  std::atomic<std::uintptr_t> key{kEmpty};  // published after `layout` is written
  NamedLayout layout;
};
Slot g_slots[kSlots];

std::size_t home_of(std::uintptr_t key) { return (key ^ (key >> 7) ^ (key >> 17)) % kSlots; }

}  // namespace

const NamedLayout* find_named_layout(MPI_Datatype type) {
  const std::uintptr_t key = key_of(type);
  for (std::size_t i = 0, at = home_of(key); i < kSlots; ++i, at = (at + 1) % kSlots) {
    const std::uintptr_t seen = g_slots[at].key.load(std::memory_order_acquire);
    if (seen == key) return &g_slots[at].layout;
    if (seen == kEmpty) return nullptr;
  }
  return nullptr;
}

void remember_named_layout(MPI_Datatype type, const NamedLayout& layout) {
  const std::uintptr_t key = key_of(type);
  for (std::size_t i = 0, at = home_of(key); i < kSlots; ++i, at = (at + 1) % kSlots) {
    std::uintptr_t seen = g_slots[at].key.load(std::memory_order_acquire);
    if (seen == key) return;  // another thread was first
    if (seen == kEmpty && g_slots[at].key.compare_exchange_strong(seen, kClaimed, std::memory_order_acq_rel)) {
      g_slots[at].layout = layout;
      g_slots[at].key.store(key, std::memory_order_release);
      return;
    }
  }
}

}  // namespace mcorecoll
