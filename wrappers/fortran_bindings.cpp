// Fortran entry points for every name mangling (mpi_x_, mpi_x__, mpi_x, MPI_X) and the
// mpi_f08 ones (mpi_x_f08_): both MPIs' Fortran bindings call PMPI_* (or internal code)
// directly, so a C-only shim would miss every Fortran program.
#include <mpi.h>

#include "abi_guard.hpp"
#include "dispatch.hpp"
#include "fortran_sentinels.hpp"

#define MCORECOLL_EXPORT __attribute__((visibility("default")))

namespace {

using mcorecoll::c_buffer;

void set_ierr(MPI_Fint* ierr, int rc) {
  if (ierr) *ierr = static_cast<MPI_Fint>(rc);  // mpi_f08's ierror is optional: may be null
}

// Not our MPI (see abi_guard.hpp): hand the call to the next definition of the same symbol.
template <typename... Args>
void forward(const char* self, Args... args) {
  using Fn = void (*)(Args...);
  if (auto fn = reinterpret_cast<Fn>(mcorecoll::next_definition(self))) fn(args...);
}

void fortran_barrier(const char* self, MPI_Fint* comm, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi()) return forward(self, comm, ierr);
  set_ierr(ierr, mcorecoll::barrier(PMPI_Comm_f2c(*comm)));
}

void fortran_bcast(const char* self, void* buffer, MPI_Fint* count, MPI_Fint* datatype,
                   MPI_Fint* root, MPI_Fint* comm, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi()) return forward(self, buffer, count, datatype, root, comm, ierr);
  set_ierr(ierr, mcorecoll::bcast(c_buffer(buffer), *count, PMPI_Type_f2c(*datatype), *root,
                                  PMPI_Comm_f2c(*comm)));
}

void fortran_alltoall(const char* self, void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype,
                      void* recvbuf, MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* comm,
                      MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi())
    return forward(self, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierr);
  set_ierr(ierr, mcorecoll::alltoall(c_buffer(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype),
                                     c_buffer(recvbuf), *recvcount, PMPI_Type_f2c(*recvtype),
                                     PMPI_Comm_f2c(*comm)));
}

void fortran_finalize(const char* self, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi()) return forward(self, ierr);
  set_ierr(ierr, mcorecoll::finalize());
}

}  // namespace

// One definition per name mangling, each forwarding to the shared implementation. `args` is
// a parenthesised list, unwrapped by MCORECOLL_UNPAREN.
#define MCORECOLL_UNPAREN(...) __VA_ARGS__
#define MCORECOLL_FORTRAN_NAME(symbol, impl, params, args) \
  extern "C" MCORECOLL_EXPORT void symbol params { impl(#symbol, MCORECOLL_UNPAREN args); }
#define MCORECOLL_FORTRAN(lower, upper, params, args)                   \
  MCORECOLL_FORTRAN_NAME(mpi_##lower##_, fortran_##lower, params, args)  \
  MCORECOLL_FORTRAN_NAME(mpi_##lower##__, fortran_##lower, params, args) \
  MCORECOLL_FORTRAN_NAME(mpi_##lower, fortran_##lower, params, args)     \
  MCORECOLL_FORTRAN_NAME(MPI_##upper, fortran_##lower, params, args)     \
  MCORECOLL_FORTRAN_NAME(mpi_##lower##_f08_, fortran_##lower, params, args)

MCORECOLL_FORTRAN(barrier, BARRIER, (MPI_Fint * comm, MPI_Fint * ierr), (comm, ierr))
MCORECOLL_FORTRAN(bcast, BCAST,
                  (void* buffer, MPI_Fint* count, MPI_Fint* datatype, MPI_Fint* root,
                   MPI_Fint* comm, MPI_Fint* ierr),
                  (buffer, count, datatype, root, comm, ierr))
MCORECOLL_FORTRAN(alltoall, ALLTOALL,
                  (void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, void* recvbuf,
                   MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* comm, MPI_Fint* ierr),
                  (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierr))
MCORECOLL_FORTRAN(finalize, FINALIZE, (MPI_Fint * ierr), (ierr))
