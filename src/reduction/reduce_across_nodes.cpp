#include "reduction/reduce_across_nodes.hpp"

#include "common/scratch_room.hpp"
#include "node/transfer_count.hpp"
#include "node/wait.hpp"
#include "reduction/fold.hpp"
#include "node/comm_context.hpp"
#include "reduction/reduction_rooms.hpp"

namespace mcorecoll {

ReduceAcrossNodesRounds::ReduceAcrossNodesRounds(CommContext& ctx, const Config& config, const void* sendbuf,
                                                 void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                                                 const ElementLayout& layout, std::uint64_t bytes, ReduceRooms rooms,
                                                 bool blocking)
    : AcrossNodesPhases(ctx.node_rank == 0), ctx_(ctx), count_(count), type_(type), op_(op), root_(root),
      root_node_(root < 0 ? -1 : ctx.places[static_cast<std::size_t>(root)].node), layout_(layout), bytes_(bytes),
      rooms_(rooms), blocking_(blocking), ring_(ctx, config) {
  const std::size_t image = layout.image_bytes(static_cast<std::size_t>(count));
  const bool gets_result = root < 0 || ctx.rank == root;
  node_gets_result_ = root < 0 || ctx.node_index == root_node_;
  // Phase 3 runs on every node for allreduce, on the root's node for reduce when the root is
  // not its leader.
  hands_out_ = root < 0 || (ctx.node_index == root_node_ && ctx.places[static_cast<std::size_t>(root)].node_rank != 0);
  // Alike on every leader: the same count, datatype and number of nodes.
  gather_fold_ = static_cast<std::size_t>(count) * layout.extent * static_cast<std::size_t>(ctx.node_count) <=
                 kGatherFoldBytes;
  direct_ = gather_fold_ && leaders_direct(ctx, config);
  // The partial goes where the result will be: the receive buffer when the result is this
  // rank's, else room (a reduce's non-root receive buffer is not ours to write).
  target_ = gets_result ? static_cast<char*>(recvbuf)
            : leader() || hands_out_ ? scratch_room(rooms.partial, image)
                                    : nullptr;
  if (count == 0) {
    nothing_to_do();
    return;
  }
  const void* mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  fold_.emplace(ctx, config, mine, leader() ? target_ : nullptr, count, type, op, /*node rank*/ 0, layout);
  if (hands_out_) result_.emplace(target_, count, type, bytes);
}

// Phase 1: this node's ranks folded in rank order at the node leader.
bool ReduceAcrossNodesRounds::node_step(bool may_call_mpi, int* waiting_on) {
  if (!fold_->advance(may_call_mpi, waiting_on)) return false;
  // The extent is at most a line (the caller checks), and every staging half holds one.
  keep(fold_->too_small() ? MPI_ERR_INTERN : fold_->rc);
  return true;
}

// Phase 3: the leader hands the result to its node (for reduce, to the root; the root's
// node-mates read it into room, their receive buffers not being significant), as bytes in
// signature order. (Packing needs MPI only for a derived datatype, which only the blocking
// forms take.)
bool ReduceAcrossNodesRounds::hand_out_step(bool may_call_mpi, int* waiting_on) {
  if (!hands_out_) return true;
  if (!result_->contiguous() && !may_call_mpi) return false;
  if (leader() && !packed_) result_->pack(), packed_ = true;
  if (!ring_.step(result_->data(), bytes_, 0, waiting_on)) return false;
  if (!leader()) result_->unpack();
  return true;
}

// Phase 2, at node leaders: the nodes' partials combined in node order into the partial's
// place (on every leader for allreduce, the root's node's for reduce).
bool ReduceAcrossNodesRounds::leaders_step() {
  if (!posted_) {
    posted_ = true;
    if (!post_leaders()) return true;  // a blocking call, over
  }
  int exchanged = MPI_SUCCESS;
  if (blocking_) exchanged = leaders_.wait();
  else if (!leaders_.test(&exchanged)) return false;
  keep(exchanged);
  if (exchanged == MPI_SUCCESS && node_gets_result_) combine();
  return true;
}

// Posts the leaders' exchange; false where a blocking call of the MPI library did it all.
bool ReduceAcrossNodesRounds::post_leaders() {
  const MPI_Comm comm = ctx_.leaders_comm;
  const int nodes = ctx_.node_count;
  const std::size_t block = static_cast<std::size_t>(count_) * layout_.extent;
  const std::size_t image = layout_.image_bytes(static_cast<std::size_t>(count_));
  char* gathered = node_gets_result_ && gather_fold_ ? scratch_room(rooms_.gathered, block * static_cast<std::size_t>(nodes))
                                                     : nullptr;
  // A reduce's result, not in place: MPICH 4.0.2's MPI_Reduce in place at a root other than 0
  // crashes above 2 KiB.
  char* result = node_gets_result_ && !gather_fold_ && root_ >= 0 ? scratch_room(rooms_.folded, image) : nullptr;
  leaders_.clear();
  if (direct_) {
    // One message from each leader to each that folds (leader_messages.hpp): one network
    // latency, where the MPI library's allgather of a few ranks takes rounds.
    for (int j = 0; j < nodes; ++j) {
      if (j == ctx_.node_index) continue;
      if (node_gets_result_) leaders_.receive(gathered + static_cast<std::size_t>(j) * block, count_, type_, j, comm);
      if (root_ < 0 || j == root_node_) leaders_.send(target_, count_, type_, j, comm);
    }
    return true;
  }
  // A reduce's root node keeps its partial.
  count_network_elements(MCORECOLL_NETWORK_REDUCTION, -1, root_ >= 0 && ctx_.node_index == root_node_ ? 0 : count_,
                         type_);
  if (blocking_) {
    int called;
    if (gather_fold_)
      called = root_ < 0 ? PMPI_Allgather(target_, count_, type_, gathered, count_, type_, comm)
                         : PMPI_Gather(target_, count_, type_, gathered, count_, type_, root_node_, comm);
    else
      called = root_ < 0 ? PMPI_Allreduce(MPI_IN_PLACE, target_, count_, type_, op_, comm)
                         : PMPI_Reduce(target_, result, count_, type_, op_, root_node_, comm);
    keep(called);
    if (called == MPI_SUCCESS && node_gets_result_) combine();
    return false;
  }
  leaders_.post_library([&](MPI_Request* r) {
    if (gather_fold_)
      return root_ < 0 ? PMPI_Iallgather(target_, count_, type_, gathered, count_, type_, comm, r)
                       : PMPI_Igather(target_, count_, type_, gathered, count_, type_, root_node_, comm, r);
    return root_ < 0 ? PMPI_Iallreduce(MPI_IN_PLACE, target_, count_, type_, op_, comm, r)
                     : PMPI_Ireduce(target_, result, count_, type_, op_, root_node_, comm, r);
  });
  return true;
}

// Once the exchange is in: gathered partials folded in node order (node j's at j x block, the
// gathered blocks being images; this node's is the partial itself after a direct exchange),
// or a reduce's result copied, into the partial's place.
void ReduceAcrossNodesRounds::combine() {
  if (!gather_fold_ && root_ < 0) return;  // the allreduce was in place
  const std::size_t block = static_cast<std::size_t>(count_) * layout_.extent;
  char* folded = rooms_.folded.data();
  int rc = MPI_SUCCESS;
  if (gather_fold_) {
    folded = scratch_room(rooms_.folded, layout_.image_bytes(static_cast<std::size_t>(count_)));
    rc = fold(ctx_.node_count, count_, layout_, type_, op_, folded, [&](int j) {
      return direct_ && j == ctx_.node_index ? target_ : rooms_.gathered.data() + static_cast<std::size_t>(j) * block;
    });
  }
  if (rc == MPI_SUCCESS) rc = deliver(folded, target_, count_, layout_, type_, ctx_.comm, rooms_.packed);
  keep(rc);
}

int reduce_across_nodes(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf, int count,
                        MPI_Datatype type, MPI_Op op, int root, const ElementLayout& layout,
                        std::uint64_t bytes) {
  if (count == 0) return MPI_SUCCESS;
  ReductionRooms& kept = reduction_rooms(ctx);
  ReduceAcrossNodesRounds rounds(ctx, config, sendbuf, recvbuf, count, type, op, root, layout, bytes,
                                 {kept.node_partial, kept.nodes_gathered, kept.running, kept.packed}, true);
  return rounds.run_to_end(ctx, config);
}

}  // namespace mcorecoll
