! Configure-time probe: is the mpi_f08 module usable (readable by this compiler, with the
! choice-buffer routines, sentinels and derived types the test uses, and linkable)?
program probe_f08
  use mpi_f08
  implicit none
  integer :: buf(2), ierr
  type(MPI_Datatype) :: t
  integer(kind=MPI_ADDRESS_KIND) :: a
  call MPI_Init(ierr)
  call MPI_Get_address(buf, a, ierr)
  t = MPI_INTEGER
  call MPI_Bcast(buf, 2, t, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(MPI_BOTTOM, 0, t, 0, MPI_COMM_WORLD)
  call MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 1, t, MPI_COMM_WORLD, ierr)
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_F_sync_reg(buf)
  call MPI_Finalize(ierr)
end program probe_f08
