// Fortran's MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE are addresses of
// variables inside the MPI library's Fortran bindings, not C's constants: map them before an
// argument reaches C.
#pragma once

namespace mcorecoll {

// C's MPI_BOTTOM / MPI_IN_PLACE for the Fortran sentinels, `buffer` itself otherwise.
void* c_buffer(void* buffer);

// Whether a Fortran status (array) argument is MPI_STATUS_IGNORE (MPI_STATUSES_IGNORE), in
// mpif.h, the mpi module or mpi_f08.
bool status_ignored(const void* status);
bool statuses_ignored(const void* statuses);

}  // namespace mcorecoll
