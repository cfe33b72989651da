#include "common/stop_job.hpp"

#include <time.h>

#include <cstdlib>

namespace mcorecoll {

void stop_job(MPI_Comm comm) {
  const timespec moment = {0, 300 * 1000 * 1000};
  nanosleep(&moment, nullptr);
  PMPI_Abort(comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm, 1);
  std::abort();  // PMPI_Abort does not return; this only tells the compiler so
}

}  // namespace mcorecoll
