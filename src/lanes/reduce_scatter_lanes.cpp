#include "lanes/reduce_scatter_lanes.hpp"

#include <cstring>

#include "common/scratch_room.hpp"
#include "lanes/lanes.hpp"
#include "node/comm_context.hpp"
#include "node/transfer_count.hpp"
#include "progress/rounds_operation.hpp"

namespace mcorecoll {

// Every rank is on a lane, those of no element too: the lane's call is made by all of it.
ReduceScatterLanesRounds::ReduceScatterLanesRounds(CommContext& ctx, const Config& config, const void* input,
                                                   void* recvbuf, int total, const int* counts, int count,
                                                   MPI_Datatype type, MPI_Op op, const ElementLayout& layout,
                                                   ReduceScatterLanesRooms& rooms, bool blocking)
    : AcrossNodesPhases(true), recvbuf_(recvbuf), count_(count), by_counts_(counts != nullptr), blocking_(blocking),
      type_(type), op_(op), lanes_(blocking ? lanes_of(ctx) : ctx.lanes_comm), rooms_(rooms) {
  const int n = ctx.node_size, nodes = ctx.node_count, me = ctx.node_rank;
  auto count_of = [&](int rank) { return counts ? counts[rank] : count; };
  rooms.displs.resize(static_cast<std::size_t>(ctx.size));
  std::size_t at = 0;
  for (int r = 0; r < ctx.size; ++r) rooms.displs[static_cast<std::size_t>(r)] = at, at += static_cast<std::size_t>(count_of(r));
  // The vector in lane order: node rank 0's blocks of every node, then node rank 1's, ...; this
  // rank's lane from element `first`, `mine` of them.
  const std::size_t e = layout.extent;
  char* ordered = scratch_room(rooms.ordered, static_cast<std::size_t>(total) * e);
  const char* from = static_cast<const char*>(input);
  std::size_t to = 0, first = 0;
  int mine = 0;
  rooms.lane_counts.assign(static_cast<std::size_t>(nodes), 0);
  for (int j = 0; j < n; ++j) {
    if (j == me) first = to;
    for (int i = 0; i < nodes; ++i) {
      const int r = ctx.node_members[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
      const std::size_t elements = static_cast<std::size_t>(count_of(r));
      std::memcpy(ordered + to * e, from + rooms.displs[static_cast<std::size_t>(r)] * e, elements * e);
      to += elements;
      if (j == me) rooms.lane_counts[static_cast<std::size_t>(i)] = count_of(r), mine += count_of(r);
    }
  }
  char* partial = scratch_room(rooms.partial, static_cast<std::size_t>(mine) * e);
  node_.emplace(ctx, config, ordered, partial, total, type, op, ScatterBlock{static_cast<int>(first), mine, layout},
                layout);
}

std::uint64_t ReduceScatterLanesRounds::moves() const { return (node_ ? node_->moves() : 0) + phases_moved(); }

// 1. This rank's lane's blocks of the node's partial. Areas too small for one element are
// decided per node: an error, with the lane's call still made, so that every rank makes the
// same calls (as ReduceLanesRounds).
bool ReduceScatterLanesRounds::node_step(bool may_call_mpi, int* waiting_on) {
  if (!node_->advance(may_call_mpi, waiting_on)) return false;
  keep(node_->too_small() ? MPI_ERR_INTERN : node_->rc);
  return true;
}

// 2. Across the nodes on its lane (its rank there: its node's index), its own block's total.
bool ReduceScatterLanesRounds::leaders_step() {
  char* partial = rooms_.partial.data();
  int* counts = rooms_.lane_counts.data();
  if (lane_.first()) {
    int mine = 0;
    for (int c : rooms_.lane_counts) mine += c;
    count_network_elements(MCORECOLL_NETWORK_LANE, -1, mine, type_);
  }
  return lane_.step(
      blocking_, &rc,
      [&] {
        return by_counts_ ? PMPI_Reduce_scatter(partial, recvbuf_, counts, type_, op_, lanes_)
                          : PMPI_Reduce_scatter_block(partial, recvbuf_, count_, type_, op_, lanes_);
      },
      [&](MPI_Request* r) {
        return by_counts_ ? PMPI_Ireduce_scatter(partial, recvbuf_, counts, type_, op_, lanes_, r)
                          : PMPI_Ireduce_scatter_block(partial, recvbuf_, count_, type_, op_, lanes_, r);
      });
}

int reduce_scatter_lanes(CommContext& ctx, const Config& config, const void* input, void* recvbuf, int total,
                         const int* counts, int count, MPI_Datatype type, MPI_Op op, const ElementLayout& layout) {
  ReduceScatterLanesRounds rounds(ctx, config, input, recvbuf, total, counts, count, type, op, layout,
                                  ctx.kept.get<ReduceScatterLanesRooms>(), true);
  return rounds.run_to_end(ctx, config);
}

namespace {

class IreduceScatterLanes final : public RoundsOperation<ReduceScatterLanesRounds> {
 public:
  IreduceScatterLanes(CommContext& ctx, const Config& config, const void* input, void* recvbuf, int total,
                      const int* counts, int count, MPI_Datatype type, MPI_Op op, const ElementLayout& layout)
      : RoundsOperation(ctx), config_(config), input_(input), recvbuf_(recvbuf), total_(total),
        counts_(counts ? std::vector<int>(counts, counts + ctx.size) : std::vector<int>()), count_(count), type_(type),
        op_(op), layout_(layout) {}

  void begin() override {
    rc = MPI_SUCCESS;
    if (total_ == 0) return;
    rounds_.emplace(ctx_, config_, input_, recvbuf_, total_, counts_.empty() ? nullptr : counts_.data(), count_, type_,
                    op_, layout_, rooms_, false);
  }
  bool step(bool may_call_mpi) override { return total_ == 0 || RoundsOperation::step(may_call_mpi); }

 private:
  const Config& config_;
  const void* input_;
  void* recvbuf_;
  int total_;
  std::vector<int> counts_;
  int count_;
  MPI_Datatype type_;
  MPI_Op op_;
  ElementLayout layout_;
  ReduceScatterLanesRooms rooms_;
};

}  // namespace

std::unique_ptr<Operation> make_ireduce_scatter_lanes(CommContext& ctx, const Config& config, const void* input,
                                                      void* recvbuf, int total, const int* counts, int count,
                                                      MPI_Datatype type, MPI_Op op, const ElementLayout& layout) {
  return std::make_unique<IreduceScatterLanes>(ctx, config, input, recvbuf, total, counts, count, type, op, layout);
}

}  // namespace mcorecoll
