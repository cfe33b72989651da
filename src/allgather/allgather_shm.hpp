// MPI_Allgather inside one node, three algorithms (decisions/node_algorithms.hpp):
//  lines:  a block of one line through the ranks' reduction lines (node/record_lines.hpp):
//          every rank posts its block, everyone reads every line;
//  groups: the lines by groups (node/line_tree.hpp's LineGroups), each group's leader
//          gathering its members' blocks into a line of a second call (the node's choice for
//          a block of half a line on a node of more than MCORECOLL_ALLGATHER_FLAT_MAX ranks);
//  staged: the staging areas, the alltoall's rounds with one block for all: each round every
//          rank stages a tile of its block once, then copies every rank's tile into its place,
//          staggered, with at most MCORECOLL_ALLTOALL_READERS readers on one area. The rounds are
// resumable (AllgatherRounds): the blocking call waits between steps, the non-blocking and
// persistent forms (iallgather_shm.hpp) take them as the progress engine gives them. Steps
// call no MPI function (packing and unpacking are the caller's, in the application's thread).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "decisions/node_algorithms.hpp"
#include "node/line_tree.hpp"
#include "node/node_reads.hpp"
#include "node/record_lines.hpp"
#include "node/staged_rounds.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

class AllgatherRounds {
 public:
  // `out`: this rank's block as bytes in signature order; `recv`: the n blocks' bytes.
  // `algorithm`: kAllgatherLines, kAllgatherGroups, kAllgatherStaged or the node's choice
  // (kAllgatherShm, as the node phases of the compositions across nodes take it).
  AllgatherRounds(CommContext& ctx, const Config& config, const char* out, char* recv, std::uint64_t block,
                  int algorithm = kAllgatherShm);
  // Does what it can without waiting; true when this rank's part is over. Where it waits for a
  // rank, *waiting_on says which.
  bool advance(int* waiting_on);
  // What this rank has done so far (run_rounds, node/wait.hpp).
  std::uint64_t moves() const { return moves_; }

 private:
  bool line_step(int* waiting_on);
  bool group_step(int* waiting_on);

  CommContext& ctx_;
  const Config& config_;
  const char* out_;
  char* recv_;
  std::uint64_t block_;
  int algorithm_;  // the one taken: lines, groups or staged
  bool begun_ = false, posted_ = false;
  StagingAreas staging_{};
  std::uint64_t tile_ = 0, offset_ = 0;
  std::optional<Round> round_;
  std::optional<NodeReads> reads_;
  LineCall line_{};
  std::vector<char> read_;  // lines: which ranks' blocks are in
  LineGroups groups_;       // groups: the node's groups
  LineCall group_line_{};   // groups: the call of the leaders' lines
  int stage_ = 0;           // groups: 0 post, 1 a leader reads its members, 2 post the group's, 3 read
  int next_ = 0;            // groups: the next member or group to read
  std::uint64_t moves_ = 0;
};

// `block`: the signature bytes each rank contributes (> 0 or the call returns at once).
int allgather_shm(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount,
                  MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                  std::uint64_t block, int algorithm);

}  // namespace mcorecoll
