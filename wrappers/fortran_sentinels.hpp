// Fortran's MPI_BOTTOM and MPI_IN_PLACE are addresses of variables inside the MPI library's
// Fortran bindings, not C's constants: map them before a buffer reaches C.
#pragma once

namespace mcorecoll {

// C's MPI_BOTTOM / MPI_IN_PLACE for the Fortran sentinels, `buffer` itself otherwise.
void* c_buffer(void* buffer);

}  // namespace mcorecoll
