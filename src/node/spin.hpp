// Spinning on this processor, without MPI: the pause of one poll, how many polls take a given
// time here, and one step of backing off (spin, then yield, then nap). The waiter (wait.hpp)
// and the progress helper build their waits from these.
#pragma once

namespace mcorecoll {

// The polls that take `microseconds` of spinning on this machine (the cost of a poll is
// measured once per process).
unsigned spin_polls_for(int microseconds);

// One step of backing off: spin `spin_polls` polls, then yield, then nap. `polls` counts the
// steps of the current wait (from 0). Returns how many steps were past the spinning (0 while
// spinning).
unsigned pause_once(unsigned& polls, unsigned spin_polls);

}  // namespace mcorecoll
