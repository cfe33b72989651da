// The engine's table from the handles the application holds to their records
// (request_table.hpp): open addressing with linear probing, no allocation per insert or erase
// (a std::unordered_map node cost a malloc and a free per non-blocking call). Not thread-safe:
// the engine's lock guards it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace mcorecoll {

// Keys are MPI_Request handles (a pointer in Open MPI, an int in MPICH); `empty`, a value no
// key takes (MPI_REQUEST_NULL), marks free slots.
template <typename Key, typename Value>
class HandleTable {
 public:
  explicit HandleTable(Key empty) : empty_(empty), slots_(16, Slot{empty, nullptr}) {}

  std::size_t size() const { return count_; }

  Value* find(Key key) const {
    if (key == empty_) return nullptr;
    for (std::size_t i = home(key);; i = next(i)) {
      const Slot& s = slots_[i];
      if (s.key == empty_) return nullptr;
      if (s.key == key) return s.value;
    }
  }

  void insert(Key key, Value* value) {
    if (2 * (count_ + 1) > slots_.size()) grow();
    place(key, value);
    ++count_;
  }

  // Removes `key` if present (backward shift: no tombstones).
  bool erase(Key key) {
    std::size_t i = home(key);
    for (;; i = next(i)) {
      if (slots_[i].key == empty_) return false;
      if (slots_[i].key == key) break;
    }
    for (std::size_t j = next(i);; j = next(j)) {
      const Slot s = slots_[j];
      if (s.key == empty_) break;
      const std::size_t h = home(s.key);
      // s may move into the hole at i unless its home lies cyclically in (i, j].
      if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
        slots_[i] = s;
        i = j;
      }
    }
    slots_[i] = Slot{empty_, nullptr};
    --count_;
    return true;
  }

  template <typename Visit>
  void for_each(Visit visit) const {
    for (const Slot& s : slots_)
      if (s.key != empty_) visit(s.key, s.value);
  }
  void clear() {
    slots_.assign(16, Slot{empty_, nullptr});
    count_ = 0;
  }

 private:
  struct Slot {
    Key key;
    Value* value;
  };

  std::size_t home(Key key) const {
    std::uint64_t x = 0;
    std::memcpy(&x, &key, sizeof(key) < sizeof(x) ? sizeof(key) : sizeof(x));  // a pointer or an int
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return static_cast<std::size_t>(x) & (slots_.size() - 1);
  }
  std::size_t next(std::size_t i) const { return (i + 1) & (slots_.size() - 1); }

  void place(Key key, Value* value) {
    std::size_t i = home(key);
    while (slots_[i].key != empty_) i = next(i);
    slots_[i] = Slot{key, value};
  }

  void grow() {
    std::vector<Slot> old(slots_.size() * 2, Slot{empty_, nullptr});
    old.swap(slots_);
    for (const Slot& s : old)
      if (s.key != empty_) place(s.key, s.value);
  }

  Key empty_;
  std::vector<Slot> slots_;  // a power of two
  std::size_t count_ = 0;
};

}  // namespace mcorecoll
