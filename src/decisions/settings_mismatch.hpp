// Ranks of one communicator with different settings would route alike calls differently and
// deadlock: the job stops instead, saying this rank's settings.
#pragma once

#include <mpi.h>

namespace mcorecoll {

struct Config;

[[noreturn]] void stop_for_different_settings(MPI_Comm comm, const Config& config);

}  // namespace mcorecoll
