#include "progress/leader_messages.hpp"

#include "decisions/config.hpp"
#include "node/comm_context.hpp"
#include "node/transfer_count.hpp"

namespace mcorecoll {
namespace {

// The leaders' communicator is mcorecoll's own: no application message shares it.
constexpr int kLeaderTag = 0x4d43;

}  // namespace

bool leaders_direct(const CommContext& ctx, const Config& config) {
  return ctx.node_count <= config.leaders_direct_max_nodes;
}

void LeaderMessages::clear() {
  requests_.clear();
  error_ = MPI_SUCCESS;
}

void LeaderMessages::receive(void* buffer, int count, MPI_Datatype type, int peer, MPI_Comm comm) {
  requests_.push_back(MPI_REQUEST_NULL);
  keep(PMPI_Irecv(buffer, count, type, peer, kLeaderTag, comm, &requests_.back()));
}

void LeaderMessages::send(const void* buffer, int count, MPI_Datatype type, int peer, MPI_Comm comm) {
  count_network_elements(MCORECOLL_NETWORK_MESSAGE, peer, count, type);
  requests_.push_back(MPI_REQUEST_NULL);
  keep(PMPI_Isend(buffer, count, type, peer, kLeaderTag, comm, &requests_.back()));
}

void LeaderMessages::post_barrier(int me, int leaders, MPI_Comm comm) {
  for (int j = 0; j < leaders; ++j)
    if (j != me) {
      receive(nullptr, 0, MPI_BYTE, j, comm);
      send(nullptr, 0, MPI_BYTE, j, comm);
    }
}

bool LeaderMessages::test(int* rc) {
  if (!requests_.empty()) {
    int done = 0;
    const int tested = PMPI_Testall(static_cast<int>(requests_.size()), requests_.data(), &done, MPI_STATUSES_IGNORE);
    if (tested == MPI_SUCCESS && !done) return false;
    // After an error the others are waited for: no receive may land in a buffer (or match a
    // message of a later operation) once the caller has moved on.
    if (tested != MPI_SUCCESS) PMPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
    keep(tested);
    requests_.clear();
  }
  if (*rc == MPI_SUCCESS) *rc = error_;
  return true;
}

int LeaderMessages::wait() {
  if (!requests_.empty())
    keep(PMPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE));
  requests_.clear();
  return error_;
}

}  // namespace mcorecoll
