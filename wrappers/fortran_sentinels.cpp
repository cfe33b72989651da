#include "fortran_sentinels.hpp"

#include <dlfcn.h>
#include <mpi.h>

#include <vector>

namespace mcorecoll {
namespace {

struct Sentinels {
  // Variables whose address is the sentinel (Open MPI's common blocks in every Fortran name
  // mangling, MPICH's mpi_f08 variables).
  std::vector<const void*> bottom, in_place, status_ignore, statuses_ignore;
  // Variables that hold the sentinel's address (MPICH's mpif.h / use mpi; set at MPI_Init;
  // the standard's MPI_F_STATUS(ES)_IGNORE and MPICH's MPI_F08_STATUS(ES)_IGNORE).
  std::vector<void* const*> bottom_ptr, in_place_ptr, status_ignore_ptr, statuses_ignore_ptr;
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
  for (const char* name : {"mpi_fortran_status_ignore", "mpi_fortran_status_ignore_", "mpi_fortran_status_ignore__",
                           "MPI_FORTRAN_STATUS_IGNORE", "MPIR_F08_MPI_STATUS_IGNORE_OBJ"})
    if (const void* p = dlsym(RTLD_DEFAULT, name)) s.status_ignore.push_back(p);
  for (const char* name : {"mpi_fortran_statuses_ignore", "mpi_fortran_statuses_ignore_",
                           "mpi_fortran_statuses_ignore__", "MPI_FORTRAN_STATUSES_IGNORE",
                           "MPIR_F08_MPI_STATUSES_IGNORE_OBJ"})
    if (const void* p = dlsym(RTLD_DEFAULT, name)) s.statuses_ignore.push_back(p);
  for (const char* name : {"MPI_F_STATUS_IGNORE", "MPI_F08_STATUS_IGNORE"})
    if (void* p = dlsym(RTLD_DEFAULT, name)) s.status_ignore_ptr.push_back(static_cast<void* const*>(p));
  for (const char* name : {"MPI_F_STATUSES_IGNORE", "MPI_F08_STATUSES_IGNORE"})
    if (void* p = dlsym(RTLD_DEFAULT, name)) s.statuses_ignore_ptr.push_back(static_cast<void* const*>(p));
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

const Sentinels& sentinels() {
  static const Sentinels resolved = resolve();
  return resolved;
}

}  // namespace

void* c_buffer(void* buffer) {
  const Sentinels& s = sentinels();
  if (is_one_of(buffer, s.bottom, s.bottom_ptr)) return MPI_BOTTOM;
  if (is_one_of(buffer, s.in_place, s.in_place_ptr)) return MPI_IN_PLACE;
  return buffer;
}

bool status_ignored(const void* status) {
  const Sentinels& s = sentinels();
  return is_one_of(status, s.status_ignore, s.status_ignore_ptr);
}

bool statuses_ignored(const void* statuses) {
  const Sentinels& s = sentinels();
  return is_one_of(statuses, s.statuses_ignore, s.statuses_ignore_ptr);
}

}  // namespace mcorecoll
