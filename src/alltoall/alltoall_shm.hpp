// The shared-memory MPI_Alltoall (paper section 4.3), two ways:
// - Staged: in rounds, every rank stages a tile of each outgoing block in its own staging
//   area, then gathers its incoming tiles from every peer of its node, starting with the next
//   rank (so that no one area is read by everyone at once). Tiles are sized so that one
//   round's staging fits in cache: what is copied in is still there when it is copied out.
//   MPI_IN_PLACE works: a tile is staged before anyone writes over it. Across nodes, each node
//   leader also packs the round's tiles bound for other nodes from the staging areas,
//   exchanges them with the other leaders in one alltoallv (node_count^2 messages instead of
//   size^2), receives into a shared inbox, and the node's ranks copy their tiles out of it.
// - Single copy, inside one node: every rank posts where its send data is, then reads its
//   block straight from every peer's memory with Cross Memory Attach, staggered and with at
//   most k readers on one peer at a time; one copy per block instead of staging's two, for
//   large blocks.
//
// Written once, as resumable rounds (AlltoallRounds): the blocking alltoall waits inside its
// steps, the non-blocking and persistent ones (ialltoall_shm.hpp) take them as the progress
// engine gives them.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "common/message_bytes.hpp"
#include "node/node_reads.hpp"
#include "node/staged_rounds.hpp"
#include "node/wait.hpp"
#include "progress/leader_messages.hpp"

namespace mcorecoll {

class CommContext;
class NodeShm;
class Waiter;
struct Config;

// The send data as peers and the staging read it, from the packed sides: in place, staging
// reads the receive buffer tile by tile before it is overwritten; single copy reads a copy
// (`copy`) of blocks that this rank overwrites while peers read them.
const char* alltoall_out(AlltoallBytes& sides, bool single_copy, std::vector<char>& copy);

class AlltoallRounds {
 public:
  // `out`: alltoall_out(); `recv`: the receive bytes. `waiter`: a blocking form's, with which
  // the steps wait where they would stop (node/wait.hpp's arrived()) and whose leaders'
  // exchange across nodes is PMPI_Alltoallv; none for an operation of the progress engine
  // (PMPI_Ialltoallv, posted and tested). The staging areas are asked for at the first step
  // (the lease may change, and every node rank then needs the leader's answer).
  AlltoallRounds(CommContext& ctx, const Config& config, const char* out, char* recv, std::uint64_t block,
                 bool single_copy, Waiter* waiter);
  // Does what it can without waiting; true once this rank's part is over (then rc is final).
  // Where it waits for a node rank, *waiting_on says which; it stops where it would call MPI
  // unless `may_call_mpi`.
  bool advance(bool may_call_mpi, int* waiting_on);
  int rc = MPI_SUCCESS;

 private:
  enum class Stage { stage, exchange, exchange_test, gather, inbox };
  bool staged_step(bool may_call_mpi, int* waiting_on);
  bool single_copy_step(int* waiting_on);
  // The reads of every peer that has posted (NodeReads); with a waiter, waits here for all of
  // them, backing off only while none is ready.
  template <typename Read>
  bool read_all(NodeShm& shm, Read read, int* waiting_on) {
    unsigned polls = 0;
    for (std::size_t left = reads_->left(); !reads_->advance(shm, read); left = reads_->left()) {
      if (!waiter_) return *waiting_on = reads_->next(), false;
      if (reads_->left() == left) waiter_->backoff(polls);
      else polls = 0;
    }
    return true;
  }
  void keep(int error) {
    if (rc == MPI_SUCCESS) rc = error;
  }

  CommContext& ctx_;
  const Config& config_;
  const char* out_;
  char* recv_;
  std::uint64_t block_;
  bool single_copy_;
  Waiter* waiter_;
  bool begun_ = false;
  std::optional<NodeReads> reads_;
  // Staged rounds.
  StagingAreas staging_{};
  std::uint64_t tile_ = 0, offset_ = 0;
  Stage stage_ = Stage::stage;
  std::optional<Round> round_;
  std::vector<int> counts_, displs_;
  LeaderMessages exchange_;
  // Single copy.
  std::uint64_t seq_ = 0;
  bool read_all_ = false;
  int peer_ = 0;
};

// `block`: the signature size of one block (same on every rank). The communicator has a shared
// segment on every node (with an inbox when it spans nodes); `single_copy`: one node, where
// single copy was probed to work. Returns an MPI error code.
int alltoall_shm(CommContext& ctx, const Config& config, const void* sendbuf, int sendcount,
                 MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                 std::uint64_t block, bool single_copy);

}  // namespace mcorecoll
