! Checks MPI_Barrier, MPI_Bcast and MPI_Alltoall (and the other collectives below, down to one
! mcorecoll hands on untouched) through one of the Fortran bindings, chosen
! when compiling: -DBINDING_F77 (include 'mpif.h'), -DBINDING_USEMPI (use mpi) or
! -DBINDING_F08 (use mpi_f08); their non-blocking forms; and their persistent forms, named
! MPI_X_INIT (MPI-4: MPICH 4, Open MPI 5) or, with -DPERSISTENT_MPIX, MPIX_X_INIT (Open MPI 4.1). Every
! root, several counts, bytes past the count left alone, MPI_BOTTOM with a datatype of
! absolute addresses, MPI_IN_PLACE for MPI_Alltoall. Exits non-zero (MPI_Abort) on any wrong
! result; rank 0 prints "fortran test passed" at the very end otherwise.
program test_bindings
#if defined(BINDING_F08)
  use mpi_f08
#elif defined(BINDING_USEMPI)
  use mpi
#endif
  implicit none
#if defined(BINDING_F77)
  include 'mpif.h'
#endif
#if defined(PERSISTENT_MPIX)
#define BARRIER_INIT MPIX_Barrier_init
#define BCAST_INIT MPIX_Bcast_init
#define ALLTOALL_INIT MPIX_Alltoall_init
#define ALLREDUCE_INIT MPIX_Allreduce_init
#define SCAN_INIT MPIX_Scan_init
#else
#define BARRIER_INIT MPI_Barrier_init
#define BCAST_INIT MPI_Bcast_init
#define ALLTOALL_INIT MPI_Alltoall_init
#define ALLREDUCE_INIT MPI_Allreduce_init
#define SCAN_INIT MPI_Scan_init
#endif

  integer, parameter :: maxn = 1000, pad = 16, guard = -777
  double precision, parameter :: dguard = -1.5d0
  integer, parameter :: bcast_counts(4) = [0, 1, 7, 1000]
  integer, parameter :: a2a_counts(2) = [1, 5]

  integer :: rank, nprocs, ierr, nerr, total
  integer :: root, ic, i, k, d, n, it
  integer :: ibuf(maxn + pad)
  double precision :: dbuf(maxn + pad), dsum(maxn + pad)
  ! MPI_BOTTOM + struct datatype: two unrelated variables, addressed absolutely.
  integer :: sa(6)
  double precision :: sd(4)
  integer(kind=MPI_ADDRESS_KIND) :: disp(2)
  integer :: blens(2)
#if defined(BINDING_F08)
  type(MPI_Datatype) :: types(2), stype
#else
  integer :: types(2), stype
#endif
  integer, allocatable :: sbuf(:), rbuf(:), big(:)
  character(len=200) :: msg
  logical :: flag
#if defined(BINDING_F08)
  type(MPI_Request) :: req, reqs(2), preqs(3)
  type(MPI_Comm) :: half, inter, ring, dupc, cart
  type(MPI_Group) :: wgroup
#else
  integer :: req, reqs(2), preqs(3)
  integer :: half, inter, ring, dupc, cart
  integer :: wgroup
#endif
  integer :: cdims(2), gindex(64), gedges(128), gleft(1), gright(1), gself(1), gone(1)
  logical :: cper(2), remain(2)
  integer :: left, right, mine, gathered(2)
  integer :: color, lrank, rg, rootarg

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  nerr = 0

  ! ---- MPI_Barrier
  do it = 1, 3
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call check_ierr('MPI_Barrier', ierr)
  end do
#if defined(BINDING_F08)
  call MPI_Barrier(MPI_COMM_WORLD)  ! ierror is optional in mpi_f08
#endif

  ! ---- MPI_Bcast of integers and of double precision, every root, every count
  do root = 0, nprocs - 1
    do ic = 1, size(bcast_counts)
      n = bcast_counts(ic)
      ibuf = guard
      if (rank == root) then
        do i = 1, n
          ibuf(i) = ival(root, n, i)
        end do
      end if
      call MPI_Bcast(ibuf, n, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
      call check_ierr('MPI_Bcast(MPI_INTEGER)', ierr)
      do i = 1, maxn + pad
        if (i <= n) then
          if (ibuf(i) /= ival(root, n, i)) then
            write (msg, '(a,i0,a,i0,a,i0,a,i0,a,i0)') 'bcast integer root=', root, ' count=', n, &
              ' element ', i, ': got ', ibuf(i), ' expected ', ival(root, n, i)
            call report(msg)
          end if
        else if (ibuf(i) /= guard) then
          write (msg, '(a,i0,a,i0,a,i0,a,i0)') 'bcast integer root=', root, ' count=', n, &
            ' wrote past the count: element ', i, ' = ', ibuf(i)
          call report(msg)
        end if
      end do

      dbuf = dguard
      if (rank == root) then
        do i = 1, n
          dbuf(i) = dval(root, n, i)
        end do
      end if
      call MPI_Bcast(dbuf, n, MPI_DOUBLE_PRECISION, root, MPI_COMM_WORLD, ierr)
      call check_ierr('MPI_Bcast(MPI_DOUBLE_PRECISION)', ierr)
      do i = 1, maxn + pad
        if (i <= n) then
          if (dbuf(i) /= dval(root, n, i)) then
            write (msg, '(a,i0,a,i0,a,i0,a,g0,a,g0)') 'bcast double root=', root, ' count=', n, &
              ' element ', i, ': got ', dbuf(i), ' expected ', dval(root, n, i)
            call report(msg)
          end if
        else if (dbuf(i) /= dguard) then
          write (msg, '(a,i0,a,i0,a,i0,a,g0)') 'bcast double root=', root, ' count=', n, &
            ' wrote past the count: element ', i, ' = ', dbuf(i)
          call report(msg)
        end if
      end do
    end do

    ! A buffer that starts inside an array: elements before and after stay untouched.
    ibuf = guard
    if (rank == root) then
      do i = 1, 7
        ibuf(4 + i) = ival(root, 77, i)
      end do
    end if
    call MPI_Bcast(ibuf(5), 7, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    call check_ierr('MPI_Bcast(ibuf(5))', ierr)
    do i = 1, maxn + pad
      if (i >= 5 .and. i <= 11) then
        if (ibuf(i) /= ival(root, 77, i - 4)) then
          write (msg, '(a,i0,a,i0,a,i0)') 'bcast into ibuf(5:11) root=', root, ' element ', i, &
            ': got ', ibuf(i)
          call report(msg)
        end if
      else if (ibuf(i) /= guard) then
        write (msg, '(a,i0,a,i0,a,i0)') 'bcast into ibuf(5:11) root=', root, &
          ' touched element ', i, ' = ', ibuf(i)
        call report(msg)
      end if
    end do

    ! A strided array section (the compiler copies it in and out, or, for mpi_f08 with
    ! descriptors, the MPI builds a datatype): every other element, the rest untouched.
    ibuf = guard
    if (rank == root) then
      do i = 1, 7
        ibuf(2*i - 1) = ival(root, 78, i)
      end do
    end if
    call MPI_Bcast(ibuf(1:13:2), 7, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    call check_ierr('MPI_Bcast(ibuf(1:13:2))', ierr)
    do i = 1, maxn + pad
      if (i <= 13 .and. mod(i, 2) == 1) then
        if (ibuf(i) /= ival(root, 78, (i + 1)/2)) then
          write (msg, '(a,i0,a,i0,a,i0)') 'bcast into ibuf(1:13:2) root=', root, ' element ', &
            i, ': got ', ibuf(i)
          call report(msg)
        end if
      else if (ibuf(i) /= guard) then
        write (msg, '(a,i0,a,i0,a,i0)') 'bcast into ibuf(1:13:2) root=', root, &
          ' touched element ', i, ' = ', ibuf(i)
        call report(msg)
      end if
    end do
  end do

  ! ---- MPI_Bcast(MPI_BOTTOM, 1, struct type of absolute addresses)
  do root = 0, nprocs - 1
    sa = guard
    sd = dguard
    if (rank == root) then
      do i = 1, 5
        sa(i) = ival(root, 5, i)
      end do
      do i = 1, 3
        sd(i) = dval(root, 3, i)
      end do
    end if
    call MPI_Get_address(sa, disp(1), ierr)
    call MPI_Get_address(sd, disp(2), ierr)
    blens = [5, 3]
    types = [MPI_INTEGER, MPI_DOUBLE_PRECISION]
    call MPI_Type_create_struct(2, blens, disp, types, stype, ierr)
    call MPI_Type_commit(stype, ierr)
    call MPI_Bcast(MPI_BOTTOM, 1, stype, root, MPI_COMM_WORLD, ierr)
    call check_ierr('MPI_Bcast(MPI_BOTTOM)', ierr)
    call MPI_F_sync_reg(sa)
    call MPI_F_sync_reg(sd)
    call MPI_Type_free(stype, ierr)
    do i = 1, 6
      if (i <= 5) then
        if (sa(i) /= ival(root, 5, i)) then
          write (msg, '(a,i0,a,i0,a,i0)') 'bcast MPI_BOTTOM root=', root, ' integer ', i, &
            ': got ', sa(i)
          call report(msg)
        end if
      else if (sa(i) /= guard) then
        write (msg, '(a,i0,a,i0)') 'bcast MPI_BOTTOM root=', root, ' touched sa(6) = ', sa(i)
        call report(msg)
      end if
    end do
    do i = 1, 4
      if (i <= 3) then
        if (sd(i) /= dval(root, 3, i)) then
          write (msg, '(a,i0,a,i0,a,g0)') 'bcast MPI_BOTTOM root=', root, ' double ', i, &
            ': got ', sd(i)
          call report(msg)
        end if
      else if (sd(i) /= dguard) then
        write (msg, '(a,i0,a,g0)') 'bcast MPI_BOTTOM root=', root, ' touched sd(4) = ', sd(i)
        call report(msg)
      end if
    end do
  end do

  ! ---- MPI_Alltoall: block (src,dst) holds apat(src, dst, position)
  do ic = 1, size(a2a_counts)
    n = a2a_counts(ic)
    allocate (sbuf(n*nprocs), rbuf(n*nprocs + pad))
    call fill_send(n)
    rbuf = guard
    call MPI_Alltoall(sbuf, n, MPI_INTEGER, rbuf, n, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    call check_ierr('MPI_Alltoall', ierr)
    call check_a2a('MPI_Alltoall', n)
    do d = 0, nprocs - 1
      do k = 1, n
        if (sbuf(d*n + k) /= apat(rank, d, k)) then
          write (msg, '(a,i0,a,i0)') 'alltoall count=', n, ' changed the send buffer at ', d*n + k
          call report(msg)
        end if
      end do
    end do

    ! MPI_IN_PLACE, send arguments as the receive ones
    call fill_in_place(n)
    call MPI_Alltoall(MPI_IN_PLACE, n, MPI_INTEGER, rbuf, n, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    call check_ierr('MPI_Alltoall(MPI_IN_PLACE)', ierr)
    call check_a2a('MPI_Alltoall(MPI_IN_PLACE)', n)

    ! MPI_IN_PLACE, send arguments ignored as the standard allows
    call fill_in_place(n)
    call MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, rbuf, n, MPI_INTEGER, &
                      MPI_COMM_WORLD, ierr)
    call check_ierr('MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL)', ierr)
    call check_a2a('MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL)', n)
    deallocate (sbuf, rbuf)
  end do

  ! ---- Non-blocking: MPI_Ibcast completed by MPI_Wait (small) and an MPI_Test loop (large,
  ! more than the ring holds), MPI_Ialltoall and MPI_Ibarrier completed by one MPI_Waitall.
  allocate (big(200000))
  do root = 0, nprocs - 1
    ibuf = guard
    if (rank == root) then
      do i = 1, 1000
        ibuf(i) = ival(root, 1000, i)
      end do
    end if
    call MPI_Ibcast(ibuf, 1000, MPI_INTEGER, root, MPI_COMM_WORLD, req, ierr)
    call check_ierr('MPI_Ibcast', ierr)
    call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    call check_ierr('MPI_Wait', ierr)
    do i = 1, maxn + pad
      if (i <= 1000) then
        if (ibuf(i) /= ival(root, 1000, i)) then
          write (msg, '(a,i0,a,i0,a,i0)') 'ibcast root=', root, ' element ', i, ': got ', ibuf(i)
          call report(msg)
        end if
      else if (ibuf(i) /= guard) then
        write (msg, '(a,i0,a,i0)') 'ibcast root=', root, ' wrote past the count: element ', i
        call report(msg)
      end if
    end do

    big = guard
    if (rank == root) then
      do i = 1, size(big)
        big(i) = ival(root, 3, i)
      end do
    end if
    call MPI_Ibcast(big, size(big), MPI_INTEGER, root, MPI_COMM_WORLD, req, ierr)
    call check_ierr('MPI_Ibcast(big)', ierr)
    flag = .false.
    do while (.not. flag)
      call MPI_Test(req, flag, MPI_STATUS_IGNORE, ierr)
      call check_ierr('MPI_Test', ierr)
    end do
    do i = 1, size(big)
      if (big(i) /= ival(root, 3, i)) then
        write (msg, '(a,i0,a,i0,a,i0)') 'ibcast (big) root=', root, ' element ', i, ': got ', big(i)
        call report(msg)
        exit
      end if
    end do
  end do
  deallocate (big)
  do ic = 1, size(a2a_counts)
    n = a2a_counts(ic)
    allocate (sbuf(n*nprocs), rbuf(n*nprocs + pad))
    call fill_send(n)
    rbuf = guard
    call MPI_Ialltoall(sbuf, n, MPI_INTEGER, rbuf, n, MPI_INTEGER, MPI_COMM_WORLD, reqs(1), ierr)
    call check_ierr('MPI_Ialltoall', ierr)
    call MPI_Ibarrier(MPI_COMM_WORLD, reqs(2), ierr)
    call check_ierr('MPI_Ibarrier', ierr)
    call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
    call check_ierr('MPI_Waitall', ierr)
    call check_a2a('MPI_Ialltoall', n)
    deallocate (sbuf, rbuf)
  end do

  ! ---- Persistent: initialized once, started three times (MPI_Start, then MPI_Startall twice),
  ! completed by MPI_Wait, MPI_Waitall and an MPI_Test loop, the buffers refilled between
  ! starts; an inactive request completes at once; MPI_Request_free at the end.
  n = 5
  root = nprocs - 1
  allocate (sbuf(n*nprocs), rbuf(n*nprocs + pad))
  call BCAST_INIT(ibuf, 1000, MPI_INTEGER, root, MPI_COMM_WORLD, MPI_INFO_NULL, preqs(1), ierr)
  call check_ierr('BCAST_INIT', ierr)
  call ALLTOALL_INIT(sbuf, n, MPI_INTEGER, rbuf, n, MPI_INTEGER, MPI_COMM_WORLD, &
                     MPI_INFO_NULL, preqs(2), ierr)
  call check_ierr('ALLTOALL_INIT', ierr)
  call BARRIER_INIT(MPI_COMM_WORLD, MPI_INFO_NULL, preqs(3), ierr)
  call check_ierr('BARRIER_INIT', ierr)
  do it = 1, 3
    ibuf = guard
    if (rank == root) then
      do i = 1, 1000
        ibuf(i) = ival(root, it, i)
      end do
    end if
    call fill_send(n)
    rbuf = guard
    if (it == 1) then
      call MPI_Start(preqs(1), ierr)
      call check_ierr('MPI_Start', ierr)
      call MPI_Wait(preqs(1), MPI_STATUS_IGNORE, ierr)
      call check_ierr('MPI_Wait(persistent)', ierr)
      ! Inactive now: a second wait returns at once.
      call MPI_Wait(preqs(1), MPI_STATUS_IGNORE, ierr)
      call check_ierr('MPI_Wait(inactive)', ierr)
      call MPI_Startall(2, preqs(2:3), ierr)
      call check_ierr('MPI_Startall(2)', ierr)
      call MPI_Waitall(2, preqs(2:3), MPI_STATUSES_IGNORE, ierr)
      call check_ierr('MPI_Waitall(persistent)', ierr)
    else
      call MPI_Startall(3, preqs, ierr)
      call check_ierr('MPI_Startall(3)', ierr)
      if (it == 2) then
        call MPI_Waitall(3, preqs, MPI_STATUSES_IGNORE, ierr)
        call check_ierr('MPI_Waitall(persistent)', ierr)
      else
        do i = 1, 3
          flag = .false.
          do while (.not. flag)
            call MPI_Test(preqs(i), flag, MPI_STATUS_IGNORE, ierr)
            call check_ierr('MPI_Test(persistent)', ierr)
          end do
        end do
      end if
    end if
    do i = 1, maxn + pad
      if (i <= 1000) then
        if (ibuf(i) /= ival(root, it, i)) then
          write (msg, '(a,i0,a,i0,a,i0)') 'persistent bcast start ', it, ' element ', i, &
            ': got ', ibuf(i)
          call report(msg)
          exit
        end if
      else if (ibuf(i) /= guard) then
        write (msg, '(a,i0,a,i0)') 'persistent bcast start ', it, ' wrote past the count: ', i
        call report(msg)
      end if
    end do
    call check_a2a('persistent alltoall', n)
  end do
  do i = 1, 3
    call MPI_Request_free(preqs(i), ierr)
    call check_ierr('MPI_Request_free(persistent)', ierr)
  end do
  deallocate (sbuf, rbuf)

  ! ---- Reductions and allgather: MPI_Allreduce (also in place), MPI_Reduce to every root,
  ! MPI_Allgather, MPI_Iallreduce, and a persistent allreduce started twice. Sums of
  ! rank + i/2 in double precision are exact in any order.
  do it = 1, 5
    do i = 1, maxn + pad
      dbuf(i) = rank + 0.5d0*i + it
    end do
    dsum = dguard
    if (it == 1) then
      call MPI_Allreduce(dbuf, dsum, maxn, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
      call check_ierr('MPI_Allreduce', ierr)
    else if (it == 2) then
      dsum(1:maxn) = dbuf(1:maxn)
      call MPI_Allreduce(MPI_IN_PLACE, dsum, maxn, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
      call check_ierr('MPI_Allreduce(MPI_IN_PLACE)', ierr)
    else if (it == 3) then
      call MPI_Iallreduce(dbuf, dsum, maxn, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req, ierr)
      call check_ierr('MPI_Iallreduce', ierr)
      call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
      call check_ierr('MPI_Wait(iallreduce)', ierr)
    else
      if (it == 4) then
        call ALLREDUCE_INIT(dbuf, dsum, maxn, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, &
                            MPI_INFO_NULL, preqs(1), ierr)
        call check_ierr('ALLREDUCE_INIT', ierr)
      end if
      call MPI_Start(preqs(1), ierr)
      call check_ierr('MPI_Start(allreduce)', ierr)
      call MPI_Wait(preqs(1), MPI_STATUS_IGNORE, ierr)
      call check_ierr('MPI_Wait(persistent allreduce)', ierr)
      if (it == 5) then
        call MPI_Request_free(preqs(1), ierr)
        call check_ierr('MPI_Request_free(allreduce)', ierr)
      end if
    end if
    do i = 1, maxn + pad
      if (i <= maxn) then
        if (dsum(i) /= nprocs*(0.5d0*i + it) + nprocs*(nprocs - 1)/2) then
          write (msg, '(a,i0,a,i0)') 'allreduce form ', it, ' element ', i
          call report(msg)
          exit
        end if
      else if (dsum(i) /= dguard) then
        write (msg, '(a,i0,a,i0)') 'allreduce form ', it, ' wrote past the count: ', i
        call report(msg)
        exit
      end if
    end do
  end do
  do root = 0, nprocs - 1
    do i = 1, maxn
      ibuf(i) = 10*rank + i
    end do
    allocate (rbuf(maxn + pad))
    rbuf = guard
    call MPI_Reduce(ibuf, rbuf, maxn, MPI_INTEGER, MPI_SUM, root, MPI_COMM_WORLD, ierr)
    call check_ierr('MPI_Reduce', ierr)
    do i = 1, maxn + pad
      if (rank == root .and. i <= maxn) then
        k = nprocs*i + 10*nprocs*(nprocs - 1)/2
      else
        k = guard
      end if
      if (rbuf(i) /= k) then
        write (msg, '(a,i0,a,i0,a,i0)') 'MPI_Reduce root ', root, ' element ', i, ': got ', rbuf(i)
        call report(msg)
        exit
      end if
    end do
    deallocate (rbuf)
  end do
  n = 5
  allocate (sbuf(n), rbuf(n*nprocs + pad))
  do i = 1, n
    sbuf(i) = apat(rank, 0, i)
  end do
  rbuf = guard
  call MPI_Allgather(sbuf, n, MPI_INTEGER, rbuf, n, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call check_ierr('MPI_Allgather', ierr)
  do d = 0, nprocs - 1
    do i = 1, n
      if (rbuf(d*n + i) /= apat(d, 0, i)) then
        write (msg, '(a,i0,a,i0)') 'MPI_Allgather block ', d, ' element ', i
        call report(msg)
      end if
    end do
  end do
  if (rbuf(n*nprocs + 1) /= guard) call report('MPI_Allgather wrote past the blocks')
  deallocate (sbuf, rbuf)

  ! ---- The collectives taken inside one node only, blocking, values checked (the v-forms
  ! receive into displacements in reversed order); MPI_Igatherv and MPI_Scan_init once each.
  n = 3
  allocate (sbuf(n*nprocs), rbuf(n*nprocs + pad), big(3*nprocs))
  do d = 0, nprocs - 1
    big(d + 1) = n                           ! counts
    big(nprocs + d + 1) = (nprocs - 1 - d)*n ! receive displacements, reversed
    big(2*nprocs + d + 1) = d*n              ! send displacements, in order
    do i = 1, n
      sbuf(d*n + i) = apat(rank, d, i)
    end do
  end do
  do it = 1, 7
    rbuf = guard
    select case (it)
    case (1)
      call MPI_Alltoallv(sbuf, big(1:nprocs), big(2*nprocs + 1:3*nprocs), MPI_INTEGER, rbuf, big(1:nprocs), &
                         big(nprocs + 1:2*nprocs), MPI_INTEGER, MPI_COMM_WORLD, ierr)
    case (2)
      call MPI_Allgatherv(sbuf, n, MPI_INTEGER, rbuf, big(1:nprocs), big(nprocs + 1:2*nprocs), MPI_INTEGER, &
                          MPI_COMM_WORLD, ierr)
    case (3)
      call MPI_Gatherv(sbuf, n, MPI_INTEGER, rbuf, big(1:nprocs), big(nprocs + 1:2*nprocs), MPI_INTEGER, 0, &
                       MPI_COMM_WORLD, ierr)
    case (4)
      call MPI_Igatherv(sbuf, n, MPI_INTEGER, rbuf, big(1:nprocs), big(nprocs + 1:2*nprocs), MPI_INTEGER, 0, &
                        MPI_COMM_WORLD, req, ierr)
      call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    case (5)
      call MPI_Gather(sbuf, n, MPI_INTEGER, rbuf, n, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    case (6)
      call MPI_Scatterv(sbuf, big(1:nprocs), big(2*nprocs + 1:3*nprocs), MPI_INTEGER, rbuf, n, MPI_INTEGER, 0, &
                        MPI_COMM_WORLD, ierr)
    case (7)
      call MPI_Scatter(sbuf, n, MPI_INTEGER, rbuf, n, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    end select
    call check_ierr('a collective taken inside one node', ierr)
    do d = 0, nprocs - 1
      do i = 1, n
        k = guard
        select case (it)
        case (1)
          if (rbuf((nprocs - 1 - d)*n + i) /= apat(d, rank, i)) k = 0
        case (2)
          if (rbuf((nprocs - 1 - d)*n + i) /= apat(d, 0, i)) k = 0
        case (3, 4)
          if (rank == 0 .and. rbuf((nprocs - 1 - d)*n + i) /= apat(d, 0, i)) k = 0
        case (5)
          if (rank == 0 .and. rbuf(d*n + i) /= apat(d, 0, i)) k = 0
        case (6, 7)
          if (d == 0 .and. rbuf(i) /= apat(0, rank, i)) k = 0
        end select
        if (k == 0) then
          write (msg, '(a,i0,a,i0,a,i0)') 'node-only collective case ', it, ' block ', d, ' element ', i
          call report(msg)
        end if
      end do
    end do
  end do
  ! Sums: reduce-scatters, scan, exscan, and the persistent scan.
  do it = 1, 5
    rbuf = guard
    select case (it)
    case (1)
      call MPI_Reduce_scatter_block(sbuf, rbuf, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    case (2)
      call MPI_Reduce_scatter(sbuf, rbuf, big(1:nprocs), MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    case (3)
      call MPI_Scan(sbuf, rbuf, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    case (4)
      call MPI_Exscan(sbuf, rbuf, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    case (5)
      call SCAN_INIT(sbuf, rbuf, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, req, ierr)
      call MPI_Start(req, ierr)
      call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
      call MPI_Request_free(req, ierr)
    end select
    call check_ierr('a reduction taken inside one node', ierr)
    do i = 1, n
      k = 0
      do d = 0, nprocs - 1
        if (it <= 2) k = k + apat(d, rank, i)
        if ((it == 3 .or. it == 5) .and. d <= rank) k = k + apat(d, 0, i)
        if (it == 4 .and. d < rank) k = k + apat(d, 0, i)
      end do
      if (it == 4 .and. rank == 0) cycle
      if (rbuf(i) /= k) then
        write (msg, '(a,i0,a,i0,a,i0,a,i0)') 'node-only reduction case ', it, ' element ', i, ': got ', rbuf(i), &
          ' expected ', k
        call report(msg)
      end if
    end do
  end do
  deallocate (sbuf, rbuf, big)

  ! ---- An intercommunicator (world rank 0 alone against the others): MPI_Reduce and
  ! MPI_Ireduce with MPI_ROOT at the root, MPI_PROC_NULL at its group's other ranks and the
  ! root's rank in the other group; each must reach the MPI library as the reduce it is.
  if (nprocs >= 2) then
    color = min(rank, 1)
    call MPI_Comm_split(MPI_COMM_WORLD, color, rank, half, ierr)
    call MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 31, inter, ierr)
    call check_ierr('MPI_Intercomm_create', ierr)
    call MPI_Comm_rank(half, lrank, ierr)
    do it = 1, 2
      do rg = 0, 1
        do i = 1, maxn
          ibuf(i) = 10*rank + i
        end do
        allocate (rbuf(maxn + pad))
        rbuf = guard
        if (color == rg) then
          rootarg = MPI_PROC_NULL
          if (lrank == 0) rootarg = MPI_ROOT
        else
          rootarg = 0
        end if
        if (it == 1) then
          call MPI_Reduce(ibuf, rbuf, maxn, MPI_INTEGER, MPI_SUM, rootarg, inter, ierr)
          call check_ierr('MPI_Reduce(intercommunicator)', ierr)
        else
          call MPI_Ireduce(ibuf, rbuf, maxn, MPI_INTEGER, MPI_SUM, rootarg, inter, req, ierr)
          call check_ierr('MPI_Ireduce(intercommunicator)', ierr)
          call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
          call check_ierr('MPI_Wait(ireduce on an intercommunicator)', ierr)
        end if
        do i = 1, maxn + pad
          k = guard
          if (rootarg == MPI_ROOT .and. i <= maxn) then
            if (rg == 0) then
              k = (nprocs - 1)*i + 10*nprocs*(nprocs - 1)/2
            else
              k = i
            end if
          end if
          if (rbuf(i) /= k) then
            write (msg, '(a,i0,a,i0,a,i0,a,i0)') 'intercommunicator reduce form ', it, ' root group ', rg, &
              ' element ', i, ': got ', rbuf(i)
            call report(msg)
            exit
          end if
        end do
        deallocate (rbuf)
      end do
    end do
    call MPI_Comm_free(inter, ierr)
    call MPI_Comm_free(half, ierr)
  end if

  ! ---- A collective mcorecoll hands on untouched (wrappers/collectives.txt's forward):
  ! MPI_Neighbor_allgather and MPI_Ineighbor_allgather on a periodic ring, counted in the
  ! statistics, each rank's left and right neighbour's value received.
  call MPI_Cart_create(MPI_COMM_WORLD, 1, [nprocs], [.true.], .false., ring, ierr)
  call MPI_Cart_shift(ring, 0, 1, left, right, ierr)
  mine = rank + 40
  do it = 1, 2
    gathered = guard
    if (it == 1) then
      call MPI_Neighbor_allgather(mine, 1, MPI_INTEGER, gathered, 1, MPI_INTEGER, ring, ierr)
    else
      call MPI_Ineighbor_allgather(mine, 1, MPI_INTEGER, gathered, 1, MPI_INTEGER, ring, req, ierr)
      call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    end if
    call check_ierr('MPI_Neighbor_allgather', ierr)
    if (gathered(1) /= left + 40 .or. gathered(2) /= right + 40) then
      write (msg, '(a,i0,a,i0,a,i0)') 'neighbour allgather form ', it, ': got ', gathered(1), ' ', gathered(2)
      call report(msg)
    end if
  end do
  call MPI_Comm_free(ring, ierr)

  ! ---- Communicators used only with non-blocking calls: across nodes mcorecoll sets a duplicate
  ! up inside MPI_COMM_DUP(_WITH_INFO), and a part of one inside its making, which the Fortran
  ! bindings must reach. 20 checked MPI_Ibcast on each.
  call MPI_Comm_dup(MPI_COMM_WORLD, dupc, ierr)
  call check_ierr('MPI_Comm_dup', ierr)
  call only_ibcasts(dupc, 'a duplicate', 100)
  call MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, dupc, ierr)
  call check_ierr('MPI_Comm_dup_with_info', ierr)
  call only_ibcasts(dupc, 'a duplicate with info', 200)
  call MPI_Comm_split(MPI_COMM_WORLD, 0, nprocs - rank, dupc, ierr)
  call check_ierr('MPI_Comm_split', ierr)
  call only_ibcasts(dupc, 'a split', 300)
  call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, nprocs - rank, MPI_INFO_NULL, dupc, ierr)
  call check_ierr('MPI_Comm_split_type', ierr)
  call only_ibcasts(dupc, 'a split by type', 400)
  call MPI_Comm_group(MPI_COMM_WORLD, wgroup, ierr)
  call MPI_Comm_create(MPI_COMM_WORLD, wgroup, dupc, ierr)
  call check_ierr('MPI_Comm_create', ierr)
  call only_ibcasts(dupc, 'a communicator of a group', 500)
  call MPI_Comm_create_group(MPI_COMM_WORLD, wgroup, 7, dupc, ierr)
  call check_ierr('MPI_Comm_create_group', ierr)
  call MPI_Group_free(wgroup, ierr)
  call only_ibcasts(dupc, 'a communicator of a group made by its members', 800)
  cdims(1) = 1
  cdims(2) = nprocs
  cper = .false.
  call MPI_Cart_create(MPI_COMM_WORLD, 2, cdims, cper, .false., cart, ierr)
  call check_ierr('MPI_Cart_create', ierr)
  remain(1) = .false.
  remain(2) = .true.
  call MPI_Cart_sub(cart, remain, dupc, ierr)
  call check_ierr('MPI_Cart_sub', ierr)
  call only_ibcasts(cart, 'a grid', 600)
  call only_ibcasts(dupc, 'a row of a grid', 700)
  ! A ring as a graph, and its right-hand edges as a distributed graph, given by each rank's edge
  ! and adjacently, unweighted (the MPI library's binding reads MPI_UNWEIGHTED).
  do k = 1, min(nprocs, 64)
    gindex(k) = 2 * k
    gedges(2 * k - 1) = mod(k - 2 + nprocs, nprocs)
    gedges(2 * k) = mod(k, nprocs)
  end do
  gleft(1) = mod(rank - 1 + nprocs, nprocs)
  gright(1) = mod(rank + 1, nprocs)
  gself(1) = rank
  gone(1) = 1
  call MPI_Graph_create(MPI_COMM_WORLD, nprocs, gindex, gedges, .false., dupc, ierr)
  call check_ierr('MPI_Graph_create', ierr)
  call only_ibcasts(dupc, 'a graph', 900)
  call MPI_Dist_graph_create(MPI_COMM_WORLD, 1, gself, gone, gright, MPI_UNWEIGHTED, MPI_INFO_NULL, .false., &
                             dupc, ierr)
  call check_ierr('MPI_Dist_graph_create', ierr)
  call only_ibcasts(dupc, 'a distributed graph', 1000)
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, gleft, MPI_UNWEIGHTED, 1, gright, MPI_UNWEIGHTED, &
                                      MPI_INFO_NULL, .false., dupc, ierr)
  call check_ierr('MPI_Dist_graph_create_adjacent', ierr)
  call only_ibcasts(dupc, 'an adjacent distributed graph', 1100)

  ! ---- verdict
  call MPI_Allreduce(nerr, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (total /= 0) then
    if (rank == 0) write (*, '(a,i0,a)') 'fortran test FAILED: ', total, ' wrong results'
    flush (6)
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    stop 1
  end if
  call MPI_Finalize(ierr)
  if (ierr /= MPI_SUCCESS) stop 1
  if (rank == 0) write (*, '(a)') 'fortran test passed'

contains

  ! 20 MPI_Ibcast of 3 integers on `c`, each checked, then `c` freed.
  subroutine only_ibcasts(c, what, base)
#if defined(BINDING_F08)
    type(MPI_Comm), intent(inout) :: c
#else
    integer, intent(inout) :: c
#endif
    character(len=*), intent(in) :: what
    integer, intent(in) :: base
    integer :: crank, csize, call_no, k, croot
    call MPI_Comm_rank(c, crank, ierr)
    call MPI_Comm_size(c, csize, ierr)
    do call_no = 1, 20
      croot = mod(call_no, csize)
      do k = 1, 3
        ibuf(k) = guard
        if (crank == croot) ibuf(k) = base*call_no + k
      end do
      call MPI_Ibcast(ibuf, 3, MPI_INTEGER, croot, c, req, ierr)
      call check_ierr('MPI_Ibcast on ' // what, ierr)
      call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
      do k = 1, 3
        if (ibuf(k) /= base*call_no + k) then
          write (msg, '(a,a,a,i0,a,i0)') 'MPI_Ibcast on ', what, ', call ', call_no, ': got ', ibuf(k)
          call report(msg)
          exit
        end if
      end do
    end do
    call MPI_Comm_free(c, ierr)
  end subroutine only_ibcasts

  integer function ival(root, n, i)
    integer, intent(in) :: root, n, i
    ival = 100000*(root + 1) + 1000*mod(n, 97) + i
  end function ival

  double precision function dval(root, n, i)
    integer, intent(in) :: root, n, i
    dval = 1000.0d0*(root + 1) + 0.5d0*i + 0.25d0 + 1.0d-3*n
  end function dval

  integer function apat(src, dst, pos)
    integer, intent(in) :: src, dst, pos
    apat = 1000000 + 10000*src + 100*dst + pos
  end function apat

  subroutine fill_send(n)
    integer, intent(in) :: n
    integer :: d, k
    do d = 0, nprocs - 1
      do k = 1, n
        sbuf(d*n + k) = apat(rank, d, k)
      end do
    end do
  end subroutine fill_send

  subroutine fill_in_place(n)
    integer, intent(in) :: n
    integer :: d, k
    rbuf = guard
    do d = 0, nprocs - 1
      do k = 1, n
        rbuf(d*n + k) = apat(rank, d, k)
      end do
    end do
  end subroutine fill_in_place

  subroutine check_a2a(what, n)
    character(len=*), intent(in) :: what
    integer, intent(in) :: n
    integer :: s, k
    do s = 0, nprocs - 1
      do k = 1, n
        if (rbuf(s*n + k) /= apat(s, rank, k)) then
          write (msg, '(a,a,i0,a,i0,a,i0,a,i0,a,i0)') what, ' count=', n, ' block from ', s, &
            ' position ', k, ': got ', rbuf(s*n + k), ' expected ', apat(s, rank, k)
          call report(msg)
        end if
      end do
    end do
    do k = n*nprocs + 1, n*nprocs + pad
      if (rbuf(k) /= guard) then
        write (msg, '(a,a,i0,a,i0,a,i0)') what, ' count=', n, ' wrote past the end: element ', &
          k, ' = ', rbuf(k)
        call report(msg)
      end if
    end do
  end subroutine check_a2a

  subroutine check_ierr(what, code)
    character(len=*), intent(in) :: what
    integer, intent(in) :: code
    if (code /= MPI_SUCCESS) then
      write (msg, '(a,a,i0)') what, ' returned ierror=', code
      call report(msg)
    end if
  end subroutine check_ierr

  subroutine report(text)
    character(len=*), intent(in) :: text
    nerr = nerr + 1
    if (nerr <= 20) write (*, '(a,i0,a,a)') 'rank ', rank, ': WRONG: ', trim(text)
  end subroutine report

end program test_bindings
