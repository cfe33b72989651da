#include "allgather/leaders_allgather.hpp"

#include "node/comm_context.hpp"
#include "node/transfer_count.hpp"

namespace mcorecoll {

bool LeadersAllgather::step(const CommContext& ctx, char* all, const std::vector<int>& counts,
                            const std::vector<int>& displs, int* rc) {
  const std::size_t me = static_cast<std::size_t>(ctx.node_index);
  if (!direct_ && (blocking_ || !posted_))
    count_network(MCORECOLL_NETWORK_ALLGATHERV, -1, static_cast<std::uint64_t>(counts[me]));
  if (blocking_ && !direct_) {
    *rc = PMPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, counts.data(), displs.data(), MPI_BYTE,
                          ctx.leaders_comm);
    return true;
  }
  if (!posted_) {
    posted_ = true;
    messages_.clear();
    if (direct_) {
      for (std::size_t k = 0; k < counts.size(); ++k) {
        if (k == me) continue;
        messages_.receive(all + displs[k], counts[k], MPI_BYTE, static_cast<int>(k), ctx.leaders_comm);
        messages_.send(all + displs[me], counts[me], MPI_BYTE, static_cast<int>(k), ctx.leaders_comm);
      }
    } else {
      messages_.post_library([&](MPI_Request* r) {
        return PMPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, counts.data(), displs.data(), MPI_BYTE,
                                ctx.leaders_comm, r);
      });
    }
  }
  if (blocking_) {
    *rc = messages_.wait();
    return true;
  }
  return messages_.test(rc);
}

}  // namespace mcorecoll
