// MPI_Reduce and MPI_Allreduce inside one node, by the four algorithms decisions/route.hpp
// names (kReductionLines ...). A contribution of one line goes through the ranks' reduction
// lines (node/record_lines.hpp): `lines`: the rank(s) that need the result fold every rank's
// line in rank order; `tree` (the node's choice beyond MCORECOLL_REDUCE_FLAT_MAX ranks): over a
// tree of consecutive ranks (MCORECOLL_REDUCE_TREE_RADIX of them a group, then as many groups,
// and so on: see tree_line_step()), each group's first rank folding its group's lines in rank
// order and posting that on its own line, node rank 0 the result, which the others read. Any
// contribution goes through the staging areas (node/call_areas): in rounds of as many elements
// as half a staging area holds, every rank stages the image of its contribution, then
//  - `fold`: the rank(s) that need the result fold every contribution in rank order;
//  - `slices` (the node's choice where every rank's slice is at least kSliceMinBytes; on a node
//    of more than MCORECOLL_REDUCE_FLAT_MAX ranks at least kLineBytes, where folding everything
//    would read n contributions for one): reduce-scatter by slices, rank s folds slice s of
//    every contribution in rank order and leaves the result in its own staging area, from
//    which the rank(s) that need it copy every slice (an allgather).
// A reduce-scatter (reduce_scatter_shm.hpp) stages the same rounds, but each rank folds only its
// own block of every contribution and delivers it: it reads its share, and no slice moves twice.
// Each way each element is folded once, in one order fixed by the algorithm and the node's size
// (combine.hpp), so every rank gets the same bits, run after run. The rounds are resumable
// (ReduceRounds): the blocking call waits between its steps, the non-blocking and persistent
// forms (ireduce_shm.hpp) take them as the progress engine gives them.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <optional>

#include "node/staged_rounds.hpp"
#include "reduction/element_layout.hpp"
#include "node/record_lines.hpp"
#include "decisions/route.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// A reduce-scatter's part for this rank: its block, `count` elements of the vector from element
// `first`, delivered with `layout` (element_layout() for `count` elements).
struct ScatterBlock {
  int first = 0, count = 0;
  ElementLayout layout;
};

// The staging areas of a staged reduction's rounds (ReduceRounds', and the scans',
// scan_shm.hpp): areas sized for a block of image / n to each of the n ranks, twice, so that half
// an area holds the whole image. False while the lease waits (*waiting_on: for whom); else true
// with *per_round the elements a round moves, 0 where half an area is too small for one
// element (every rank alike: the caller hands the call to PMPI).
bool lease_reduction_rounds(CommContext& ctx, const Config& config, const ElementLayout& layout, int count,
                            StagingAreas* staging, int* per_round, int* waiting_on);

// One activation's rounds. `root`: the rank that gets the result, or -1 for every rank
// (allreduce). `sendbuf` may be MPI_IN_PLACE where the standard allows it. The communicator
// lies on one node; `layout` is element_layout()'s answer for the call. `algorithm`: one of
// the node reductions (kReductionLines ...), or kReductionShm, as node_algorithm_taken()
// (decisions/node_algorithms.hpp) takes them for the contribution's image (equal on every rank:
// the same count and type).
class ReduceRounds {
 public:
  ReduceRounds(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf, int count,
               MPI_Datatype type, MPI_Op op, int root, const ElementLayout& layout, int algorithm = kReductionShm);
  // A reduce-scatter of the vector `input` (`count` elements) through the staged rounds, at any
  // size: this rank's block of the result into `recvbuf`, the block's own buffer.
  ReduceRounds(CommContext& ctx, const Config& config, const void* input, void* recvbuf, int count,
               MPI_Datatype type, MPI_Op op, const ScatterBlock& block, const ElementLayout& layout);
  // Does what it can without waiting; true when this rank's part is over. Where it waits for a
  // rank, *waiting_on says which. With `may_call_mpi` false it stops before any MPI call.
  bool advance(bool may_call_mpi, int* waiting_on);
  // Whether the staging areas are too small for one element (every rank alike): the caller
  // hands the call to PMPI. Known after the first advance() that got past the lease.
  bool too_small() const { return too_small_; }
  // What this rank has done so far (run_rounds, node/wait.hpp).
  std::uint64_t moves() const { return moves_; }
  int rc = MPI_SUCCESS;

 private:
  // The staged rounds' stages; the small reductions use lease (not posted yet), fold and, on
  // the tree, result (posted: the result to read).
  enum class Stage { lease, stage, fold, slices_out, result };
  bool stage_round();
  bool fold_round(bool may_call_mpi, int* waiting_on);
  bool fold_block(bool may_call_mpi, int* waiting_on);
  bool gather_slices(bool may_call_mpi, int* waiting_on);
  void end_round();

  CommContext& ctx_;
  const Config& config_;
  const char* mine_;
  char* recv_;
  int count_;
  MPI_Datatype type_;
  MPI_Op op_;
  int root_;
  ElementLayout layout_;
  bool line_step(bool may_call_mpi, int* waiting_on);
  bool tree_line_step(bool may_call_mpi, int* waiting_on);

  bool gets_result_, needs_mpi_, fold_in_place_;
  int algorithm_;  // kReductionLines, kReductionTree, kReductionFold or kReductionSlices
  LineCall line_{};
  StagingAreas staging_{};
  int per_round_ = 0, first_ = 0, k_ = 0, slice_next_ = 0;
  // The tree of small reductions: the ranks this rank's partial covers so far, the partial, and
  // which of the two rooms holds it.
  int span_ = 1, room_ = 0;
  const char* partial_ = nullptr;
  bool too_small_ = false, have_round_ = false;
  std::optional<ScatterBlock> block_;  // a reduce-scatter's
  Stage stage_ = Stage::lease;
  Round round_{};
  std::uint64_t moves_ = 0;
};

// The rounds to the end, waiting politely between steps (the blocking forms).
void run_to_end(ReduceRounds& rounds, CommContext& ctx, const Config& config);

// The blocking call inside one node: its rounds to the end; PMPI where the areas are too small.
int reduce_shm(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf, int count,
               MPI_Datatype type, MPI_Op op, int root, const ElementLayout& layout, int algorithm = kReductionShm);

}  // namespace mcorecoll
