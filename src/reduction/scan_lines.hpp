// MPI_Scan and MPI_Exscan inside one node for a contribution of one record line
// (node/record_lines.hpp): the tree of scan_shm.hpp through the ranks' lines, no staging area,
// no lease, no "done" handshake: each rank posts its block on its line, once, as every small
// call does, so the lines' reuse rule holds.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>

#include "decisions/node_algorithms.hpp"
#include "node/record_lines.hpp"
#include "reduction/element_layout.hpp"
#include "reduction/scan_walk.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// Whether a call's contribution goes over the lines for `algorithm` (kScanLines, kScanStaged,
// or the node's choice kScanShm: decisions/node_algorithms.hpp); every rank alike: count, type
// and op are the same on all ranks of a scan.
inline bool scan_on_lines(const ElementLayout& layout, int count, int node_size, const Config& config,
                          int algorithm) {
  return node_algorithm_taken(Collective::scan, algorithm, layout.image_bytes(static_cast<std::size_t>(count)),
                              node_size, config) == kScanLines;
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
  std::uint64_t moves() const { return walk_.moves(); }
  int rc = MPI_SUCCESS;

 private:
  // The walk's carrier: the call's records.
  struct Lines {
    ScanLineRounds& rounds;
    bool posted(int r, int* waiting_on) const;
    const char* block(int r) const;
    bool may_post(int*) const { return true; }  // the record was claimed first
    char* own() const { return rounds.block_; }
    void post() const;
  };

  CommContext& ctx_;
  const char* input_;
  char* recv_;
  int count_;
  std::size_t bytes_;
  LineCall line_{};
  bool claimed_ = false;
  ScanWalk walk_;
  alignas(16) char parts_[kReduceLineBytes];  // the walk's scratch
  alignas(16) char prefix_[kReduceLineBytes];
  alignas(16) char block_[kReduceLineBytes];  // this rank's block, posted from here
};

}  // namespace mcorecoll
