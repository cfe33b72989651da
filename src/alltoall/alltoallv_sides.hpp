// A persistent alltoallv's two sides, kept from start to start by its operation (inside one node,
// ialltoallv_shm.hpp; across nodes, ialltoallv_across_nodes.hpp): the receive blocks, and what is
// sent to each rank: the send blocks, or in place the receive buffer's blocks as they are at the
// start (which the call then overwrites).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "alltoall/alltoallv_across_nodes.hpp"
#include "common/block_bytes.hpp"

namespace mcorecoll {

class AlltoallvSides {
 public:
  AlltoallvSides(int ranks, const void* sendbuf, const int* sendcounts, const int* sdispls, MPI_Datatype sendtype,
                 void* recvbuf, const int* recvcounts, const int* rdispls, MPI_Datatype recvtype)
      : recv(recvbuf, ranks, recvcounts, rdispls, recvtype) {
    recv.hold_types();
    if (sendbuf != MPI_IN_PLACE) {
      send_.emplace(const_cast<void*>(sendbuf), ranks, sendcounts, sdispls, sendtype);
      send_->hold_types();
    }
  }
  // At each start: the send side packed, or the receive buffer's blocks copied as they are.
  void pack() {
    const std::size_t n = static_cast<std::size_t>(recv.blocks());
    if (send_) {
      send_->pack();
    } else {
      recv.pack();
      before_.resize(n);
      for (std::size_t i = 0; i < n; ++i) {
        const int r = static_cast<int>(i);
        before_[i].assign(recv.data(r), recv.data(r) + recv.size(r));
      }
    }
    sent.where.resize(n);
    sent.bytes.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      sent.where[i] = data(static_cast<int>(i));
      sent.bytes[i] = size(static_cast<int>(i));
    }
  }
  // What is sent to rank d (after pack()).
  char* data(int d) { return send_ ? send_->data(d) : before_[static_cast<std::size_t>(d)].data(); }
  std::uint64_t size(int d) const { return send_ ? send_->size(d) : before_[static_cast<std::size_t>(d)].size(); }

  BlockBytes recv;
  SentBlocks sent;  // the same as data() and size(), by rank (after pack())

 private:
  std::optional<BlockBytes> send_;
  std::vector<std::vector<char>> before_;
};

}  // namespace mcorecoll
