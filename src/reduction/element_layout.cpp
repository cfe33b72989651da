#include "reduction/element_layout.hpp"

#include "common/message_bytes.hpp"
#include "reduction/fold.hpp"

namespace mcorecoll {

bool element_layout(MPI_Datatype type, int count, std::size_t bytes, ElementLayout* layout) {
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  if (PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
      PMPI_Type_get_true_extent(type, &true_lb, &true_extent) != MPI_SUCCESS)
    return false;
  if (extent <= 0 || true_lb < 0 || true_lb + true_extent > extent) return false;
  layout->extent = static_cast<std::size_t>(extent);
  layout->data_begin = static_cast<std::size_t>(true_lb);
  layout->data_end = static_cast<std::size_t>(true_lb + true_extent);
  // Gap-free in signature order: an image's data bytes are the user's, and delivering them is
  // one copy of [data_begin, image end).
  MPI_Aint offset = 0;
  layout->contiguous = contiguous_layout(type, count, bytes, &offset) && offset == true_lb;
  return true;
}

int deliver(const char* image, char* to, int k, const ElementLayout& layout, MPI_Datatype type, MPI_Comm comm,
            std::vector<char>& packed) {
  if (layout.contiguous) {
    std::memcpy(to + layout.data_begin, image + layout.data_begin,
                layout.image_bytes(static_cast<std::size_t>(k)) - layout.data_begin);
    return MPI_SUCCESS;
  }
  int size = 0, position = 0;
  PMPI_Pack_size(k, type, comm, &size);
  packed.resize(static_cast<std::size_t>(size));
  int rc = PMPI_Pack(image, k, type, packed.data(), size, &position, comm);
  const int packed_bytes = position;
  position = 0;
  if (rc == MPI_SUCCESS) rc = PMPI_Unpack(packed.data(), packed_bytes, &position, to, k, type, comm);
  return rc;
}

}  // namespace mcorecoll
