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
    if (!leaders_started_) {
      leaders_started_ = true;
      leaders_.clear();
      if (ctx_.node_count <= kDirectExchangeMaxNodes)  // leader_messages.hpp
        leaders_.post_barrier(ctx_.node_index, ctx_.node_count, ctx_.leaders_comm);
      else
        leaders_.post_library([&](MPI_Request* r) { return PMPI_Ibarrier(ctx_.leaders_comm, r); });
    }
    if (!leaders_.test(&rc)) return false;
    // Released also after an error (the leader reports it): the node must not wait for ever.
    shm.release(0).store(seq_, std::memory_order_release);
    return true;
  }

 private:
  std::uint64_t seq_ = 0;
  int next_ = 0;  // node ranks before this one have arrived
  bool leaders_started_ = false;
  LeaderMessages leaders_;
};

}  // namespace

std::unique_ptr<Operation> make_ibarrier(CommContext& ctx) { return std::make_unique<Ibarrier>(ctx); }

}  // namespace mcorecoll
