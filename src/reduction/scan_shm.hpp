// MPI_Scan and MPI_Exscan inside one node, over the binary indexed tree of the ranks
// (node/line_tree.hpp's PrefixBlocks): node rank i folds the blocks of ranks i - 1, i - 2,
// i - 4, ... below low(i + 1) (nearest first, each from the left: P = b_far op (... op b_(i-1))),
// makes its block P op c_i and posts it, once; then folds in, from the left, the blocks before
// its own block's first rank: its prefix [0, i] starts from its block (scan), [0, i - 1] from
// P (exscan). A rank reads at most 2 log2 n blocks and waits on a chain of at most log2 n + 1
// hand-offs, where a flat scan has rank i read i contributions. Every fold keeps rank order,
// with a bracketing fixed by the node's size alone: the same bits on every rank and in every
// run (doc/design/node-only-collectives.md).
//
// Two carriers of the same tree: a contribution of one record line goes through the ranks'
// lines (scan_lines.hpp); a larger one in rounds through the reductions' staging areas, as
// many elements a round as half an area holds, each rank's block of the round in its own half
// (ScanRounds below). Resumable: the blocking call waits between steps, the non-blocking and
// persistent forms (iscan_shm.hpp) take them as the progress engine gives them.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>

#include "node/staged_rounds.hpp"
#include "reduction/element_layout.hpp"
#include "reduction/scan_walk.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

class ScanRounds {
 public:
  // `input`: the send buffer, or the receive buffer with MPI_IN_PLACE. The communicator lies on
  // one node.
  ScanRounds(CommContext& ctx, const Config& config, bool exclusive, const void* input, void* recvbuf, int count,
             MPI_Datatype type, MPI_Op op, const ElementLayout& layout);
  // Does what it can without waiting; true when this rank's part is over. Where it waits for a
  // rank, *waiting_on says which; with `may_call_mpi` false it stops before any MPI call.
  bool advance(bool may_call_mpi, int* waiting_on);
  // Whether the staging areas are too small for one element (every rank alike): the caller
  // hands the call to PMPI. Known after the first advance() that got past the lease.
  bool too_small() const { return too_small_; }
  std::uint64_t moves() const { return walk_.moves() + rounds_done_; }
  int rc = MPI_SUCCESS;

 private:
  // The walk's carrier: the round's halves of the staging areas, each rank's block in its own.
  struct Halves {
    ScanRounds& rounds;
    bool posted(int r, int* waiting_on) const;
    const char* block(int r) const;
    bool may_post(int* waiting_on) const;  // once every rank is done with the half's last round
    char* own() const;
    void post() const;
  };
  void end_round();

  CommContext& ctx_;
  const Config& config_;
  const char* input_;
  char* recv_;
  int count_;
  ElementLayout layout_;
  StagingAreas staging_{};
  Round round_{};
  bool in_round_ = false, too_small_ = false;
  int per_round_ = 0, first_ = 0, k_ = 0;  // per_round_ 0: not leased yet
  std::uint64_t rounds_done_ = 0;
  ScanWalk walk_;
};

// The blocking call: the lines' tree (scan_lines.hpp) or these rounds, as scan_on_lines() takes
// `algorithm`; PMPI where the staging areas are too small for one element (every rank alike).
int scan_shm(CommContext& ctx, const Config& config, bool exclusive, const void* input, void* recvbuf, int count,
             MPI_Datatype type, MPI_Op op, const ElementLayout& layout, int algorithm);

}  // namespace mcorecoll
