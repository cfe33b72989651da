// The states kept on a communicator's context (common/kept_states.hpp), and the routed
// collectives' list generated from wrappers/collectives.txt (decisions/collective.hpp).
#include <string>
#include <thread>
#include <vector>

#include "catch.hpp"

#include "common/kept_states.hpp"
#include "decisions/collective.hpp"

using namespace mcorecoll;

namespace {

struct Rooms {
  std::vector<char> bytes;
};
struct Memory {
  int calls = 0;
};
// Counts its destructions, to see that the holder deletes what it made.
struct Counted {
  static int gone;
  ~Counted() { ++gone; }
};
int Counted::gone = 0;

}  // namespace

TEST_CASE("kept states: one object per type, made on first use, kept", "[kept_states]") {
  KeptStates kept;
  CHECK(kept.find<Rooms>() == nullptr);
  Rooms& rooms = kept.get<Rooms>();
  rooms.bytes.resize(64);
  Memory& memory = kept.get<Memory>();
  memory.calls = 3;
  CHECK(static_cast<void*>(&rooms) != static_cast<void*>(&memory));
  CHECK(&kept.get<Rooms>() == &rooms);
  CHECK(kept.get<Rooms>().bytes.size() == 64);
  CHECK(kept.get<Memory>().calls == 3);
  CHECK(kept.find<Memory>() == &memory);
}

TEST_CASE("kept states: each holder its own", "[kept_states]") {
  KeptStates a, b;
  a.get<Memory>().calls = 1;
  CHECK(b.find<Memory>() == nullptr);
  CHECK(b.get<Memory>().calls == 0);
}

TEST_CASE("kept states: deleted with the holder", "[kept_states]") {
  Counted::gone = 0;
  {
    KeptStates kept;
    kept.get<Counted>();
    kept.get<Counted>();
    CHECK(Counted::gone == 0);
  }
  CHECK(Counted::gone == 1);
}

TEST_CASE("kept states: two threads making two types at once", "[kept_states]") {
  for (int round = 0; round < 200; ++round) {
    KeptStates kept;
    std::thread t([&] { kept.get<Rooms>().bytes.assign(8, 'x'); });
    kept.get<Memory>().calls = round;
    t.join();
    CHECK(kept.get<Rooms>().bytes.size() == 8);
    CHECK(kept.get<Memory>().calls == round);
  }
}

TEST_CASE("the routed collectives' list follows wrappers/collectives.txt", "[collective]") {
  CHECK(std::string(collective_name(Collective::barrier)) == "barrier");
  CHECK(std::string(collective_name(Collective::reduce_scatter_block)) == "reduce_scatter_block");
  CHECK(setting_name(Collective::exscan) == "EXSCAN");
  CHECK(!node_only(Collective::allgather));
  CHECK(!node_only(Collective::allgatherv));
  CHECK(node_only(Collective::alltoallv));
  CHECK(!node_only(Collective::exscan));
  CHECK(!node_only(Collective::gather));
  CHECK(node_only(Collective::gatherv));
  for (int i = 0; i < kCollectiveCount; ++i) CHECK(static_cast<int>(kAllCollectives[static_cast<std::size_t>(i)]) == i);
}
