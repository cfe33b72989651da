// MPI_Reduce_scatter_block and MPI_Reduce_scatter of large vectors on a communicator that spans
// nodes, over every rank of a node at once (lanes): where the allreduce's composition has the
// node leaders carry the whole vector across the network, each of a node's ranks carries the
// blocks of its lane. Two phases:
//  1. inside each node, the ranks' vectors reduce-scattered (ReduceRounds by blocks,
//     reduce_shm.hpp) so that node rank r gets the node's partial of its lane's blocks: the
//     blocks of the ranks of node rank r on every node, in node order (each rank's vector put in
//     that order first: one copy of it);
//  2. those reduce-scattered across the nodes by the MPI library's own reduce-scatter on the
//     lane (lanes.hpp), every lane at once: each rank gets the total of its own block.
// Each node hands the network the vector once, spread over all its ranks. Written once, as
// rounds run by the across-nodes driver (every rank in the middle phase, on its lane; nothing
// after it): the blocking forms wait between steps, the non-blocking and persistent ones
// (make_ireduce_scatter_lanes) post the lane's MPI_Ireduce_scatter(_block) and test it. Nodes
// of equal size; contiguous types (reduction_lanes_refusal(), reduce_lanes.hpp) of
// elements up to 128 bytes, and across nodes whose ranks are not consecutive commutative ops
// only (across_nodes_refusal(), reduction_checks.hpp).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "lanes/lanes.hpp"
#include "progress/across_nodes_phases.hpp"
#include "progress/operation.hpp"
#include "reduction/element_layout.hpp"
#include "reduction/reduce_shm.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// The vector in lane order, this rank's lane's partial, and the offsets and counts that put it
// in that order. Kept on the communicator by the blocking forms, on the operation by the others.
struct ReduceScatterLanesRooms {
  std::vector<char> ordered, partial;
  std::vector<std::size_t> displs;  // each rank's block in the vector, elements
  std::vector<int> lane_counts;     // this rank's lane's blocks, in node order
};

class ReduceScatterLanesRounds : public AcrossNodesPhases<ReduceScatterLanesRounds> {
 public:
  // `input`: the whole vector of `total` elements (> 0; in place: the receive buffer);
  // `counts`: every rank's block, in elements (null: every block `count`,
  // MPI_Reduce_scatter_block); the result into `recvbuf`.
  ReduceScatterLanesRounds(CommContext& ctx, const Config& config, const void* input, void* recvbuf, int total,
                           const int* counts, int count, MPI_Datatype type, MPI_Op op, const ElementLayout& layout,
                           ReduceScatterLanesRooms& rooms, bool blocking);
  std::uint64_t moves() const;

 private:
  friend class AcrossNodesPhases<ReduceScatterLanesRounds>;
  bool node_step(bool may_call_mpi, int* waiting_on);
  bool leaders_step();
  bool hand_out_step(bool, int*) { return true; }

  void* recvbuf_;
  int count_;
  bool by_counts_, blocking_;
  MPI_Datatype type_;
  MPI_Op op_;
  MPI_Comm lanes_;
  ReduceScatterLanesRooms& rooms_;
  std::optional<ReduceRounds> node_;
  LaneCall lane_;
};

// The blocking form. Collective over `ctx`'s communicator (its first call through the lanes
// makes their communicator).
int reduce_scatter_lanes(CommContext& ctx, const Config& config, const void* input, void* recvbuf, int total,
                         const int* counts, int count, MPI_Datatype type, MPI_Op op, const ElementLayout& layout);

// The non-blocking and persistent forms (the lanes' communicator made already; a named type and
// an op combine() runs itself); `counts` copied.
std::unique_ptr<Operation> make_ireduce_scatter_lanes(CommContext& ctx, const Config& config, const void* input,
                                                      void* recvbuf, int total, const int* counts, int count,
                                                      MPI_Datatype type, MPI_Op op, const ElementLayout& layout);

}  // namespace mcorecoll
