#include "progress/leader_messages.hpp"

namespace mcorecoll {
namespace {

// The leaders' communicator is mcorecoll's own: no application message shares it.
constexpr int kLeaderTag = 0x4d43;

}  // namespace

int LeaderMessages::receive(void* buffer, int count, MPI_Datatype type, int peer, MPI_Comm comm) {
  requests_.push_back(MPI_REQUEST_NULL);
  return PMPI_Irecv(buffer, count, type, peer, kLeaderTag, comm, &requests_.back());
}

int LeaderMessages::send(const void* buffer, int count, MPI_Datatype type, int peer, MPI_Comm comm) {
  requests_.push_back(MPI_REQUEST_NULL);
  return PMPI_Isend(buffer, count, type, peer, kLeaderTag, comm, &requests_.back());
}

int LeaderMessages::post_barrier(int me, int leaders, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  for (int j = 0; j < leaders && rc == MPI_SUCCESS; ++j)
    if (j != me) {
      rc = receive(nullptr, 0, MPI_BYTE, j, comm);
      if (rc == MPI_SUCCESS) rc = send(nullptr, 0, MPI_BYTE, j, comm);
    }
  return rc;
}

bool LeaderMessages::test(int* rc) {
  if (requests_.empty()) return true;
  int done = 0;
  const int tested = PMPI_Testall(static_cast<int>(requests_.size()), requests_.data(), &done, MPI_STATUSES_IGNORE);
  if (tested != MPI_SUCCESS) {
    if (*rc == MPI_SUCCESS) *rc = tested;
    return true;
  }
  return done != 0;
}

int LeaderMessages::wait() {
  if (requests_.empty()) return MPI_SUCCESS;
  const int rc = PMPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  requests_.clear();
  return rc;
}

}  // namespace mcorecoll
