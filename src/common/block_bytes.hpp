// The blocks of a rooted or vector collective's buffer as bytes in signature order: block i is
// counts[i] elements of `type` at displs[i] extents from the buffer's start (the v-forms), or
// `count` elements at i x count extents (gather, scatter, the uniform forms). Each block is the
// user's memory where its layout is contiguous, else a packed copy (message_bytes.hpp).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <deque>
#include <vector>

#include "common/message_bytes.hpp"

namespace mcorecoll {

class BlockBytes {
 public:
  // Uniform blocks: `blocks` of `count` elements, one after another.
  BlockBytes(void* buffer, int blocks, int count, MPI_Datatype type);
  // The v-forms' blocks.
  BlockBytes(void* buffer, int blocks, const int* counts, const int* displs, MPI_Datatype type);
  BlockBytes(const BlockBytes&) = delete;
  BlockBytes& operator=(const BlockBytes&) = delete;

  char* data(int i) { return blocks_[static_cast<std::size_t>(i)].data(); }
  std::uint64_t size(int i) const { return blocks_[static_cast<std::size_t>(i)].size(); }
  int blocks() const { return static_cast<int>(blocks_.size()); }
  std::uint64_t largest() const;
  std::vector<std::uint64_t> sizes() const;  // every block's bytes
  void pack() {
    for (MessageBytes& b : blocks_) b.pack();
  }
  void pack(int i) { blocks_[static_cast<std::size_t>(i)].pack(); }
  void unpack(int i) { blocks_[static_cast<std::size_t>(i)].unpack(); }
  // For an operation that outlives its call: duplicates of derived datatypes (message_bytes.hpp).
  void hold_types() {
    for (MessageBytes& b : blocks_) b.hold_type();
  }
  // Every block but `skip` (-1: all) into the user's buffer.
  void unpack_all_but(int skip);

 private:
  std::deque<MessageBytes> blocks_;  // MessageBytes neither copies nor moves
};

}  // namespace mcorecoll
