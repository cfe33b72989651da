#include "decisions/settings_mismatch.hpp"

#include <string>

#include "common/log.hpp"
#include "common/stop_job.hpp"
#include "decisions/config.hpp"

namespace mcorecoll {

void stop_for_different_settings(MPI_Comm comm, const Config& config) {
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  say("error: the ranks of a communicator run with different MCORECOLL_* settings (or tuning "
      "files); they would take different paths and deadlock. This rank (" +
      std::to_string(rank) + ") has:\n" + config.describe() + "Stopping the job.");
  stop_job(comm);
}

}  // namespace mcorecoll
