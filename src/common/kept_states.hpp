// State that a layer above keeps on an object it does not define: one object of each type,
// made on first use and deleted with the holder. A communicator's context holds one, so that
// each algorithm keeps its scratch and the engine its queue there without the context knowing
// their types (no struct that every algorithm edits).
//
// Slots are numbered per type once per process and live in a fixed array: taking the state of
// one type never moves another's, so a helper thread may use one slot while the application's
// thread uses another. One slot is not guarded: its owner uses it as it uses the communicator
// (collectives on one communicator never run at once; the engine's under its lock).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace mcorecoll {

class KeptStates {
 public:
  // The kinds of state the library keeps (a few: raise it when adding one beyond it).
  static constexpr std::size_t kCapacity = 12;

  template <typename State>
  State& get() {
    std::unique_ptr<Base>& held = slots_[slot_of<State>()];
    if (!held) held = std::make_unique<Holder<State>>();
    return static_cast<Holder<State>*>(held.get())->state;
  }

  // The state of that type if one was made, else null.
  template <typename State>
  const State* find() const {
    const Base* held = slots_[slot_of<State>()].get();
    return held ? &static_cast<const Holder<State>*>(held)->state : nullptr;
  }

 private:
  struct Base {
    virtual ~Base() = default;
  };
  template <typename State>
  struct Holder final : Base {
    State state{};
  };

  template <typename State>
  static std::size_t slot_of() {
    static const std::size_t slot = next_slot();
    return slot;
  }
  static std::size_t next_slot() {
    static std::atomic<std::size_t> next{0};
    const std::size_t slot = next.fetch_add(1, std::memory_order_relaxed);
    if (slot >= kCapacity) {
      std::fprintf(stderr, "mcorecoll: internal error: more kinds of kept state than KeptStates::kCapacity (%zu)\n",
                   kCapacity);
      std::abort();
    }
    return slot;
  }

  std::unique_ptr<Base> slots_[kCapacity];
};

}  // namespace mcorecoll
