! Configure-time probe for the mpif.h program: one choice-buffer routine called with two
! types, which gfortran 10 and later reject unless -fallow-argument-mismatch is given.
program probe_f77
  implicit none
  include 'mpif.h'
  integer :: ibuf(2), ierr
  double precision :: dbuf(2)
  call MPI_Init(ierr)
  call MPI_Bcast(ibuf, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(dbuf, 2, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
end program probe_f77
