// Folding contributions in rank order, and handing an image's result to the user's buffer:
// the two steps every staged reduction ends with, inside a node (reduce_shm.cpp) and across
// nodes (reduce_across_nodes.cpp).
#pragma once

#include <mpi.h>

#include <cstring>
#include <vector>

#include "common/scratch_room.hpp"
#include "reduction/combine.hpp"
#include "reduction/element_layout.hpp"

namespace mcorecoll {

// Folds k elements of `parts` images (`image_of(i)`, i = 0..parts-1, in rank order) into
// `acc` (room for the image of k elements): acc = c0 op (c1 op (... op c(parts-1))).
template <typename ImageOf>
int fold(int parts, int k, const ElementLayout& layout, MPI_Datatype type, MPI_Op op, char* acc, ImageOf image_of) {
  std::memcpy(acc, image_of(parts - 1), layout.image_bytes(static_cast<std::size_t>(k)));
  int rc = MPI_SUCCESS;
  for (int r = parts - 2; r >= 0 && rc == MPI_SUCCESS; --r) rc = combine(image_of(r), acc, k, type, op);
  return rc;
}

// Writes the k elements of an image into the user's buffer at `to`: the data bytes only (gaps
// and padding of the user's buffer are not ours to touch). `packed`: room kept between calls.
int deliver(const char* image, char* to, int k, const ElementLayout& layout, MPI_Datatype type, MPI_Comm comm,
            std::vector<char>& packed);

}  // namespace mcorecoll
