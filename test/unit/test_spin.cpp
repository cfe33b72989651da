// Spinning (node/spin.hpp): MCORECOLL_SPIN_US is a time, turned into polls by a cost of a poll
// measured on this machine, so a wait spins as long on a processor whose pause is ten times
// dearer. What is checked is the conversion, not a speed: polls in proportion to the time asked,
// and the polls asked for a time taking at least about that time.
#include "catch.hpp"

#include <chrono>

#include "node/spin.hpp"

using namespace mcorecoll;

TEST_CASE("no time, no spinning", "[spin]") {
  CHECK(spin_polls_for(0) == 0);
  CHECK(spin_polls_for(-5) == 0);
}

TEST_CASE("the polls grow in proportion to the time asked", "[spin]") {
  const unsigned one = spin_polls_for(1000);
  REQUIRE(one > 0);
  const unsigned ten = spin_polls_for(10000);
  CHECK(ten >= 9 * static_cast<unsigned long long>(one));
  CHECK(ten <= 11 * static_cast<unsigned long long>(one));
}

TEST_CASE("the polls of a time take at least half of it", "[spin]") {
  // The cost of a poll is the fastest of its measurements, so spinning can only take longer than
  // asked (a descheduling), never much shorter.
  constexpr int kMicroseconds = 20000;
  const unsigned spin = spin_polls_for(kMicroseconds);
  const auto start = std::chrono::steady_clock::now();
  unsigned past_spinning = 0;
  for (unsigned polls = 0; polls < spin;) past_spinning += pause_once(polls, spin);
  CHECK(past_spinning == 0);
  const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  CHECK(us >= kMicroseconds / 2);
}

TEST_CASE("past the spinning, every step counts as a wait", "[spin]") {
  unsigned polls = 0;
  CHECK(pause_once(polls, 2) == 0);
  CHECK(pause_once(polls, 2) == 0);
  CHECK(pause_once(polls, 2) == 1);
  CHECK(pause_once(polls, 2) == 2);
  CHECK(polls == 4);
}
