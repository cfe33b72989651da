// MPI_Allreduce and MPI_Reduce of large messages on a communicator that spans nodes, over every
// rank of a node at once (lanes; Traff's full-lane collectives, UCC's split_rail): where one
// leader a node would carry the node's whole vector across the network, each of the node's n
// ranks carries 1/n of it. Three phases:
//  1. inside each node, the ranks' vectors reduce-scattered: node rank r gets slice r of the
//     node's partial, folded in node-rank order (ReduceRounds by blocks, reduce_shm.hpp);
//  2. each slice reduced across the nodes by the MPI library's own allreduce (reduce: reduce,
//     to the root's node) on the slice's lane, the ranks of equal node rank
//     (lanes.hpp), every lane at once;
//  3. inside each node that gets the result (every node; reduce: the root's), the slices
//     gathered (SlicesGather, lanes.hpp).
// Each node hands the network each byte of the vector once, spread over its lanes (a reduce's
// root node none): all its ranks where nodes are of equal size, else the emptiest node's count
// of them (lanes.hpp). Contiguous types (the slices are the vector's bytes).
// Written once, as resumable rounds run by the across-nodes driver (every rank with a slice
// takes the middle phase, on its lane): the blocking forms wait between steps; the
// non-blocking and persistent ones (make_ireduce_lanes) take them as the progress engine gives
// them, the lane's collective the MPI library's non-blocking one, posted and tested.
#pragma once

#include <mpi.h>

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

// Why a reduction on `ctx` cannot take the lanes (null: it can); equal on every rank.
// `blocking`: the call's form.
const char* reduction_lanes_refusal(const CommContext& ctx, Collective c, MPI_Op op, const ElementLayout& layout,
                                    bool blocking);

// Every slice, in vector order, where the slices are not put straight into the receive buffer;
// and a reduce's slice at its lane's root. Kept on the communicator by the blocking forms, on
// the operation by the others.
struct LanesRooms {
  std::vector<char> slices, reduced;
};

class ReduceLanesRounds : public AcrossNodesPhases<ReduceLanesRounds> {
 public:
  // `root`: a rank of the communicator (reduce), or -1 (allreduce).
  ReduceLanesRounds(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf, int count,
                    MPI_Datatype type, MPI_Op op, int root, const ElementLayout& layout, LanesRooms& rooms,
                    bool blocking);
  std::uint64_t moves() const;

 private:
  friend class AcrossNodesPhases<ReduceLanesRounds>;
  bool node_step(bool may_call_mpi, int* waiting_on);
  bool leaders_step();
  bool hand_out_step(bool, int* waiting_on);
  void lane_done();

  CommContext& ctx_;
  const Config& config_;
  void* recvbuf_;
  MPI_Datatype type_;
  MPI_Op op_;
  int root_node_ = -1, mine_ = 0;
  bool blocking_, reduce_, gets_result_, node_gets_result_, exact_;
  std::size_t slice_ = 0, extent_ = 0, image_ = 0;  // a slice's room, an element's, the vector's
  char* slices_ = nullptr;  // every slice, vector order (the receive buffer where exact)
  char* own_ = nullptr;     // this rank's slice in it
  char* reduced_ = nullptr; // a reduce's slice at its lane's root
  MPI_Comm lanes_ = MPI_COMM_NULL;
  std::optional<ReduceRounds> node_;
  std::optional<SlicesGather> gather_;
  LaneCall lane_;
};

// The blocking form: the three phases to the end. Collective over `ctx`'s communicator (its
// first call through the lanes makes their communicator).
int reduce_lanes(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf, int count,
                 MPI_Datatype type, MPI_Op op, int root, const ElementLayout& layout);

// The non-blocking and persistent forms (the lanes' communicator made already: lanes.hpp's
// refusal). Only for what ireduce_shm.hpp allows: the node's folds may run in the progress
// helper.
std::unique_ptr<Operation> make_ireduce_lanes(CommContext& ctx, const Config& config, const void* sendbuf,
                                              void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                                              const ElementLayout& layout);

}  // namespace mcorecoll
