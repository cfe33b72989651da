// MPI_Scan and MPI_Exscan on a communicator that spans nodes whose ranks are consecutive (node
// k holds a block of ranks, the blocks in node order; scan_calls.cpp sends the others to PMPI:
// a prefix follows rank order, for every op). Three phases:
//  1. inside each node: the node's total at its leader (ReduceRounds, node rank 0 the root),
//     then the node's own scan (the lines or the staged rounds of scan_shm.hpp), every rank's
//     prefix among its node's ranks;
//  2. the leaders' exscan of the node totals on the leaders' communicator (the MPI library's):
//     node k's leader gets B_k, the nodes before it folded;
//  3. on every node but the first, the leader hands B_k to its node through the node's ring
//     (node/ring_steps.hpp), and each rank folds it in from the left: B_k op (its node prefix);
//     an exscan's first rank of a node gets B_k itself.
// The first node's ranks have their results after phase 1 (their node's scan; its leader still
// gives its total to the leaders' exscan). Each
// element is folded once on every path, inside a node with the node scan's bracketing, among
// nodes with the MPI library's. Written once, as resumable rounds run by the across-nodes driver
// (progress/across_nodes_phases.hpp): the blocking forms wait between steps, the non-blocking and
// persistent ones (iscan_across_nodes.hpp) take them as the progress engine gives them.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "node/ring_steps.hpp"
#include "progress/across_nodes_phases.hpp"
#include "progress/leader_messages.hpp"
#include "reduction/element_layout.hpp"
#include "reduction/reduce_shm.hpp"
#include "reduction/scan_lines.hpp"
#include "reduction/scan_shm.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// Where the rounds keep images between steps: the node's total (leaders), the nodes before
// this one folded (B_k), this rank's prefix in its node (nodes after the first), and the room
// of deliver() (fold.hpp). The blocking forms lend the communicator's scratch, an operation
// its own.
struct ScanRooms {
  std::vector<char>& total;
  std::vector<char>& before;
  std::vector<char>& prefix;
  std::vector<char>& packed;
};

class ScanAcrossNodesRounds : public AcrossNodesPhases<ScanAcrossNodesRounds> {
 public:
  // `input`: the send buffer, or the receive buffer with MPI_IN_PLACE. The datatype's extent is
  // at most kLineBytes (every staging half holds an element: no node falls back alone).
  // `blocking`: the leaders' exscan may wait (else posted and tested).
  ScanAcrossNodesRounds(CommContext& ctx, const Config& config, bool exclusive, const void* input, void* recvbuf,
                        int count, MPI_Datatype type, MPI_Op op, const ElementLayout& layout, ScanRooms rooms,
                        bool blocking);
  // What this rank has done so far (run_rounds, node/wait.hpp).
  std::uint64_t moves() const;

 private:
  friend class AcrossNodesPhases<ScanAcrossNodesRounds>;
  bool node_step(bool may_call_mpi, int* waiting_on);
  bool leaders_step();
  bool hand_out_step(bool may_call_mpi, int* waiting_on);
  bool node_scan_step(bool may_call_mpi, int* waiting_on);

  CommContext& ctx_;
  const Config& config_;
  bool exclusive_;
  const char* input_;
  char* recv_;
  int count_;
  MPI_Datatype type_;
  MPI_Op op_;
  ElementLayout layout_;
  ScanRooms rooms_;
  bool blocking_, first_node_, needs_mpi_;
  std::size_t image_;
  char* total_ = nullptr;   // leaders: the node's total
  char* before_ = nullptr;  // leaders, and every rank after the first node: B_k
  char* prefix_ = nullptr;  // this rank's node prefix (the first node's: its receive buffer)
  std::optional<ReduceRounds> totals_;
  std::optional<ScanLineRounds> lines_;
  std::optional<ScanRounds> staged_;
  NodeRingSteps ring_;
  bool handed_ = false, posted_ = false;
  LeaderMessages leaders_;
};

// The blocking forms. Returns an MPI error code.
int scan_across_nodes(CommContext& ctx, const Config& config, bool exclusive, const void* input, void* recvbuf,
                      int count, MPI_Datatype type, MPI_Op op, const ElementLayout& layout);

}  // namespace mcorecoll
