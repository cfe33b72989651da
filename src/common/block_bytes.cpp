#include "common/block_bytes.hpp"

#include <algorithm>

namespace mcorecoll {
namespace {

void add_block(std::deque<MessageBytes>& blocks, char* base, MPI_Aint at, int count, MPI_Datatype type,
               std::uint64_t type_size) {
  blocks.emplace_back(base + at, count, type, static_cast<std::uint64_t>(count) * type_size);
}

}  // namespace

BlockBytes::BlockBytes(void* buffer, int blocks, int count, MPI_Datatype type) {
  int size = 0;
  MPI_Aint lb = 0, extent = 0;
  PMPI_Type_size(type, &size);
  PMPI_Type_get_extent(type, &lb, &extent);
  for (int i = 0; i < blocks; ++i)
    add_block(blocks_, static_cast<char*>(buffer), static_cast<MPI_Aint>(i) * count * extent, count, type,
              static_cast<std::uint64_t>(size));
}

BlockBytes::BlockBytes(void* buffer, int blocks, const int* counts, const int* displs, MPI_Datatype type) {
  int size = 0;
  MPI_Aint lb = 0, extent = 0;
  PMPI_Type_size(type, &size);
  PMPI_Type_get_extent(type, &lb, &extent);
  for (int i = 0; i < blocks; ++i)
    add_block(blocks_, static_cast<char*>(buffer), static_cast<MPI_Aint>(displs[i]) * extent, counts[i], type,
              static_cast<std::uint64_t>(size));
}

std::vector<std::uint64_t> BlockBytes::sizes() const {
  std::vector<std::uint64_t> v;
  v.reserve(blocks_.size());
  for (const MessageBytes& b : blocks_) v.push_back(b.size());
  return v;
}

std::uint64_t BlockBytes::largest() const {
  std::uint64_t m = 0;
  for (const MessageBytes& b : blocks_) m = std::max(m, b.size());
  return m;
}

void BlockBytes::unpack_all_but(int skip) {
  for (int i = 0; i < blocks(); ++i)
    if (i != skip) unpack(i);
}

}  // namespace mcorecoll
