// How the elements of a reduction's datatype lie in memory: the staged algorithms copy a
// buffer's image (element i at i x extent, gaps included) so that the MPI library's own
// MPI_Reduce_local, and any user op, sees the datatype it was given.
#pragma once

#include <mpi.h>

#include <cstddef>

namespace mcorecoll {

struct ElementLayout {
  std::size_t extent = 0;      // bytes from one element to the next
  std::size_t data_begin = 0;  // the true lower bound: where an element's data starts
  std::size_t data_end = 0;    // true lower bound + true extent: where it ends
  bool contiguous = false;     // data fills [data_begin, data_begin + count x size) in order

  // Bytes of the image of `count` elements from the buffer's start: up to the last element's
  // data, so that nothing past the user's buffer is read.
  std::size_t image_bytes(std::size_t count) const {
    return count == 0 ? 0 : (count - 1) * extent + data_end;
  }
};

// The layout of `type`, or false where the staged algorithms cannot copy images of it (a
// negative lower bound, data outside one extent, an extent of 0): those calls go to PMPI.
// `count` and `bytes` (the signature) decide `contiguous`.
bool element_layout(MPI_Datatype type, int count, std::size_t bytes, ElementLayout* layout);

}  // namespace mcorecoll
