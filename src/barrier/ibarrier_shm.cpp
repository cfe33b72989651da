#include "barrier/ibarrier_shm.hpp"

#include "node/node_shm.hpp"
#include "progress/leader_messages.hpp"
#include "topology/comm_context.hpp"

namespace mcorecoll {
namespace {

class Ibarrier final : public Operation {
 public:
  explicit Ibarrier(CommContext& ctx) : Operation(ctx) {}

  void begin() override {
    rc = MPI_SUCCESS;
    seq_ = 0;
    next_ = 0;
    leaders_started_ = false;
    leaders_ = MPI_REQUEST_NULL;
  }

  bool step(bool may_call_mpi) override {
    NodeShm& shm = *ctx_.shm;
    if (seq_ == 0) {  // first step: arrive
      seq_ = ++ctx_.seq;
      shm.arrive(ctx_.node_rank).store(seq_, std::memory_order_release);
    }
    // One node: every rank polls everyone. Across nodes only the leader does; the others
    // wait for its release.
    if (ctx_.node_count > 1 && ctx_.node_rank != 0)
      return reached(shm.release(0).load(std::memory_order_acquire), seq_) || wait_for_rank(0);
    for (; next_ < ctx_.node_size; ++next_)
      if (!reached(shm.arrive(next_).load(std::memory_order_acquire), seq_)) return wait_for_rank(next_);
    if (ctx_.node_count == 1) return true;
    if (!may_call_mpi) return false;
    const bool direct = ctx_.node_count <= kDirectExchangeMaxNodes;  // leader_messages.hpp
    if (!leaders_started_) {
      leaders_started_ = true;
      if (direct) {
        direct_.clear();
        direct_.post_barrier(ctx_.node_index, ctx_.node_count, ctx_.leaders_comm);
      } else {
        rc = PMPI_Ibarrier(ctx_.leaders_comm, &leaders_);
        if (rc != MPI_SUCCESS) leaders_ = MPI_REQUEST_NULL;
      }
    }
    if (direct ? !direct_.test(&rc) : leaders_ != MPI_REQUEST_NULL && !test_request(leaders_)) return false;
    // Released also after an error (the leader reports it): the node must not wait for ever.
    shm.release(0).store(seq_, std::memory_order_release);
    return true;
  }

 private:
  std::uint64_t seq_ = 0;
  int next_ = 0;  // node ranks before this one have arrived
  bool leaders_started_ = false;
  MPI_Request leaders_ = MPI_REQUEST_NULL;
  LeaderMessages direct_;
};

}  // namespace

std::unique_ptr<Operation> make_ibarrier(CommContext& ctx) { return std::make_unique<Ibarrier>(ctx); }

}  // namespace mcorecoll
