// Ending the job after an error has been said.
#pragma once

#include <mpi.h>

namespace mcorecoll {

// Stops the job after an error was said: waits a moment first, because launchers (MPICH's
// Hydra) can kill the job before they have forwarded the message. Does not return.
[[noreturn]] void stop_job(MPI_Comm comm);

}  // namespace mcorecoll
