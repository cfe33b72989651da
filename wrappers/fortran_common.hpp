// What the Fortran entry points share: their error argument, and Fortran integer arrays as C's.
#pragma once

#include <mpi.h>

#define MCORECOLL_EXPORT __attribute__((visibility("default")))

namespace mcorecoll {

inline void set_ierr(MPI_Fint* ierr, int rc) {
  if (ierr) *ierr = static_cast<MPI_Fint>(rc);  // mpi_f08's ierror is optional: may be null
}

// Counts and displacements: a Fortran INTEGER array is a C int array where the two have one
// size (both MPIs as built by Debian; a build with -fdefault-integer-8 fails here).
static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER arrays passed as int arrays");
inline const int* fortran_ints(const MPI_Fint* values) { return reinterpret_cast<const int*>(values); }

}  // namespace mcorecoll
