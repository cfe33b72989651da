// MPI_Scan and MPI_Exscan inside one node for a contribution of one record line
// (node/record_lines.hpp): the tree of scan_shm.hpp through the ranks' lines, no staging area,
// no lease, no "done" handshake: each rank posts its block on its line, once, as every small
// call does, so the lines' reuse rule holds.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>

#include "node/record_lines.hpp"
#include "reduction/element_layout.hpp"

namespace mcorecoll {

class CommContext;

// Whether a call's contribution goes over the lines (every rank alike: count, type and op are
// the same on all ranks of a scan).
inline bool scan_on_lines(const ElementLayout& layout, int count) {
  return layout.image_bytes(static_cast<std::size_t>(count)) <= kReduceLineBytes;
}

class ScanLineRounds {
 public:
  // `input`: the send buffer, or the receive buffer with MPI_IN_PLACE. The communicator lies on
  // one node; scan_on_lines(layout, count) holds.
  ScanLineRounds(CommContext& ctx, bool exclusive, const void* input, void* recvbuf, int count, MPI_Datatype type,
                 MPI_Op op, const ElementLayout& layout);
  // Does what it can without waiting; true when this rank's part is over. Where it waits for a
  // rank, *waiting_on says which; with `may_call_mpi` false it stops before any MPI call.
  bool advance(bool may_call_mpi, int* waiting_on);
  std::uint64_t moves() const { return moves_; }
  int rc = MPI_SUCCESS;

 private:
  enum class Stage { claim, block, prefix, done };
  // Folds rank r's posted block into `acc` from the left (r comes before what acc holds), or
  // copies it where acc holds nothing yet.
  void fold_in(int r, char* acc, bool first);

  CommContext& ctx_;
  const bool exclusive_;
  const char* input_;
  char* recv_;
  int count_;
  MPI_Datatype type_;
  MPI_Op op_;
  ElementLayout layout_;
  std::size_t bytes_;
  bool needs_mpi_;
  LineCall line_{};
  Stage stage_ = Stage::claim;
  int next_ = 0;           // block: the distance of the next part; prefix: the next block's rank
  bool have_prefix_ = false;
  std::uint64_t moves_ = 0;
  alignas(16) char parts_[kReduceLineBytes];  // the blocks before this rank's, in its block
  alignas(16) char block_[kReduceLineBytes];
  alignas(16) char prefix_[kReduceLineBytes];
};

}  // namespace mcorecoll
