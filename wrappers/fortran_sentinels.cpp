#include "fortran_sentinels.hpp"

#include <dlfcn.h>
#include <mpi.h>

#include <vector>

namespace mcorecoll {
namespace {

struct Sentinels {
  // Variables whose address is the sentinel (Open MPI's common blocks in every Fortran name
  // mangling, MPICH's mpi_f08 variables).
  std::vector<const void*> bottom, in_place;
  // Variables that hold the sentinel's address (MPICH's mpif.h / use mpi; set at MPI_Init).
  std::vector<void* const*> bottom_ptr, in_place_ptr;
};

Sentinels resolve() {
  Sentinels s;
  for (const char* name : {"mpi_fortran_bottom", "mpi_fortran_bottom_", "mpi_fortran_bottom__",
                           "MPI_FORTRAN_BOTTOM", "MPIR_F08_MPI_BOTTOM"})
    if (const void* p = dlsym(RTLD_DEFAULT, name)) s.bottom.push_back(p);
  for (const char* name : {"mpi_fortran_in_place", "mpi_fortran_in_place_",
                           "mpi_fortran_in_place__", "MPI_FORTRAN_IN_PLACE",
                           "MPIR_F08_MPI_IN_PLACE"})
    if (const void* p = dlsym(RTLD_DEFAULT, name)) s.in_place.push_back(p);
  if (void* p = dlsym(RTLD_DEFAULT, "MPIR_F_MPI_BOTTOM")) s.bottom_ptr.push_back(static_cast<void* const*>(p));
  if (void* p = dlsym(RTLD_DEFAULT, "MPIR_F_MPI_IN_PLACE")) s.in_place_ptr.push_back(static_cast<void* const*>(p));
  return s;
}

bool is_one_of(const void* buffer, const std::vector<const void*>& addresses,
               const std::vector<void* const*>& holders) {
  for (const void* a : addresses)
    if (buffer == a) return true;
  for (void* const* h : holders)
    if (*h && buffer == *h) return true;
  return false;
}

}  // namespace

void* c_buffer(void* buffer) {
  static const Sentinels sentinels = resolve();
  if (is_one_of(buffer, sentinels.bottom, sentinels.bottom_ptr)) return MPI_BOTTOM;
  if (is_one_of(buffer, sentinels.in_place, sentinels.in_place_ptr)) return MPI_IN_PLACE;
  return buffer;
}

}  // namespace mcorecoll
