// Fortran entry points for every name mangling (mpi_x_, mpi_x__, mpi_x, MPI_X) and the
// mpi_f08 ones (mpi_x_f08_): both MPIs' Fortran bindings call PMPI_* (or internal code)
// directly, so a C-only shim would miss every Fortran program.
#include <mpi.h>

#include <string>

#include "abi_guard.hpp"
#include "completion.hpp"
#include "dispatch.hpp"
#include "progress.hpp"
#include "fortran_sentinels.hpp"

#define MCORECOLL_EXPORT __attribute__((visibility("default")))

namespace {

using mcorecoll::c_buffer;

void set_ierr(MPI_Fint* ierr, int rc) {
  if (ierr) *ierr = static_cast<MPI_Fint>(rc);  // mpi_f08's ierror is optional: may be null
}

// The next definition of symbol `self` (the MPI library's own): for a foreign MPI (see
// abi_guard.hpp), and for the completion calls, which the library's binding does itself.
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

void fortran_ibarrier(const char* self, MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi()) return forward(self, comm, request, ierr);
  MPI_Request r = MPI_REQUEST_NULL;
  set_ierr(ierr, mcorecoll::ibarrier(PMPI_Comm_f2c(*comm), &r));
  *request = PMPI_Request_c2f(r);
}

void fortran_ibcast(const char* self, void* buffer, MPI_Fint* count, MPI_Fint* datatype,
                    MPI_Fint* root, MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi()) return forward(self, buffer, count, datatype, root, comm, request, ierr);
  MPI_Request r = MPI_REQUEST_NULL;
  set_ierr(ierr, mcorecoll::ibcast(c_buffer(buffer), *count, PMPI_Type_f2c(*datatype), *root,
                                   PMPI_Comm_f2c(*comm), &r));
  *request = PMPI_Request_c2f(r);
}

void fortran_ialltoall(const char* self, void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype,
                       void* recvbuf, MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* comm,
                       MPI_Fint* request, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi())
    return forward(self, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request, ierr);
  MPI_Request r = MPI_REQUEST_NULL;
  set_ierr(ierr, mcorecoll::ialltoall(c_buffer(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype),
                                      c_buffer(recvbuf), *recvcount, PMPI_Type_f2c(*recvtype),
                                      PMPI_Comm_f2c(*comm), &r));
  *request = PMPI_Request_c2f(r);
}

// The completion calls: the MPI library's own Fortran binding does the work (statuses,
// MPI_STATUS(ES)_IGNORE, logicals), after steps for mcorecoll's pending operations; a wait
// becomes a loop of the library's matching test call while operations are pending.
// The test call of the same binding as wait call `self` ("mpi_waitall_" -> "mpi_testall_").
std::string test_name(const char* self) {
  std::string name = self;
  const std::size_t at = name.find("wait") != std::string::npos ? name.find("wait") : name.find("WAIT");
  if (at != std::string::npos) name.replace(at, 4, name[at] == 'w' ? "test" : "TEST");
  return name;
}

bool fortran_true(const MPI_Fint* flag) { return *flag != 0; }

// Status-like arguments are passed through as the binding gave them.
void fortran_test(const char* self, MPI_Fint* request, MPI_Fint* flag, void* status, MPI_Fint* ierr) {
  if (!mcorecoll::foreign_mpi()) mcorecoll::progress_operations();
  forward(self, request, flag, status, ierr);
}

void fortran_wait(const char* self, MPI_Fint* request, void* status, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi() || !mcorecoll::operations_pending()) return forward(self, request, status, ierr);
  const std::string test = test_name(self);
  MPI_Fint flag = 0;
  mcorecoll::wait_by_testing([&] {
    forward(test.c_str(), request, &flag, status, ierr);
    return fortran_true(&flag) || (ierr && *ierr != MPI_SUCCESS);
  });
}

void fortran_testall(const char* self, MPI_Fint* count, MPI_Fint* requests, MPI_Fint* flag, void* statuses,
                     MPI_Fint* ierr) {
  if (!mcorecoll::foreign_mpi()) mcorecoll::progress_operations();
  forward(self, count, requests, flag, statuses, ierr);
}

void fortran_waitall(const char* self, MPI_Fint* count, MPI_Fint* requests, void* statuses, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi() || !mcorecoll::operations_pending())
    return forward(self, count, requests, statuses, ierr);
  const std::string test = test_name(self);
  MPI_Fint flag = 0;
  mcorecoll::wait_by_testing([&] {
    forward(test.c_str(), count, requests, &flag, statuses, ierr);
    return fortran_true(&flag) || (ierr && *ierr != MPI_SUCCESS && *ierr != MPI_ERR_IN_STATUS);
  });
}

void fortran_testany(const char* self, MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* flag,
                     void* status, MPI_Fint* ierr) {
  if (!mcorecoll::foreign_mpi()) mcorecoll::progress_operations();
  forward(self, count, requests, index, flag, status, ierr);
}

void fortran_waitany(const char* self, MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, void* status,
                     MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi() || !mcorecoll::operations_pending())
    return forward(self, count, requests, index, status, ierr);
  const std::string test = test_name(self);
  MPI_Fint flag = 0;
  mcorecoll::wait_by_testing([&] {
    forward(test.c_str(), count, requests, index, &flag, status, ierr);
    return fortran_true(&flag) || (ierr && *ierr != MPI_SUCCESS);
  });
}

void fortran_testsome(const char* self, MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount,
                      MPI_Fint* indices, void* statuses, MPI_Fint* ierr) {
  if (!mcorecoll::foreign_mpi()) mcorecoll::progress_operations();
  forward(self, incount, requests, outcount, indices, statuses, ierr);
}

void fortran_waitsome(const char* self, MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount,
                      MPI_Fint* indices, void* statuses, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi() || !mcorecoll::operations_pending())
    return forward(self, incount, requests, outcount, indices, statuses, ierr);
  const std::string test = test_name(self);
  mcorecoll::wait_by_testing([&] {
    forward(test.c_str(), incount, requests, outcount, indices, statuses, ierr);
    return *outcount != 0 || (ierr && *ierr != MPI_SUCCESS && *ierr != MPI_ERR_IN_STATUS);
  });
}

void fortran_request_get_status(const char* self, MPI_Fint* request, MPI_Fint* flag, void* status,
                                MPI_Fint* ierr) {
  if (!mcorecoll::foreign_mpi()) mcorecoll::progress_operations();
  forward(self, request, flag, status, ierr);
}

void fortran_request_free(const char* self, MPI_Fint* request, MPI_Fint* ierr) {
  if (!mcorecoll::foreign_mpi()) {
    MPI_Request r = PMPI_Request_f2c(*request);
    if (mcorecoll::free_pending_request(&r)) {
      *request = PMPI_Request_c2f(MPI_REQUEST_NULL);
      return set_ierr(ierr, MPI_SUCCESS);
    }
  }
  forward(self, request, ierr);
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
MCORECOLL_FORTRAN(ibarrier, IBARRIER, (MPI_Fint * comm, MPI_Fint* request, MPI_Fint* ierr),
                  (comm, request, ierr))
MCORECOLL_FORTRAN(ibcast, IBCAST,
                  (void* buffer, MPI_Fint* count, MPI_Fint* datatype, MPI_Fint* root,
                   MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr),
                  (buffer, count, datatype, root, comm, request, ierr))
MCORECOLL_FORTRAN(ialltoall, IALLTOALL,
                  (void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, void* recvbuf,
                   MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* comm, MPI_Fint* request,
                   MPI_Fint* ierr),
                  (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request, ierr))
MCORECOLL_FORTRAN(wait, WAIT, (MPI_Fint * request, void* status, MPI_Fint* ierr), (request, status, ierr))
MCORECOLL_FORTRAN(test, TEST, (MPI_Fint * request, MPI_Fint* flag, void* status, MPI_Fint* ierr),
                  (request, flag, status, ierr))
MCORECOLL_FORTRAN(waitall, WAITALL, (MPI_Fint * count, MPI_Fint* requests, void* statuses, MPI_Fint* ierr),
                  (count, requests, statuses, ierr))
MCORECOLL_FORTRAN(testall, TESTALL,
                  (MPI_Fint * count, MPI_Fint* requests, MPI_Fint* flag, void* statuses, MPI_Fint* ierr),
                  (count, requests, flag, statuses, ierr))
MCORECOLL_FORTRAN(waitany, WAITANY,
                  (MPI_Fint * count, MPI_Fint* requests, MPI_Fint* index, void* status, MPI_Fint* ierr),
                  (count, requests, index, status, ierr))
MCORECOLL_FORTRAN(testany, TESTANY,
                  (MPI_Fint * count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* flag, void* status,
                   MPI_Fint* ierr),
                  (count, requests, index, flag, status, ierr))
MCORECOLL_FORTRAN(waitsome, WAITSOME,
                  (MPI_Fint * incount, MPI_Fint* requests, MPI_Fint* outcount, MPI_Fint* indices,
                   void* statuses, MPI_Fint* ierr),
                  (incount, requests, outcount, indices, statuses, ierr))
MCORECOLL_FORTRAN(testsome, TESTSOME,
                  (MPI_Fint * incount, MPI_Fint* requests, MPI_Fint* outcount, MPI_Fint* indices,
                   void* statuses, MPI_Fint* ierr),
                  (incount, requests, outcount, indices, statuses, ierr))
MCORECOLL_FORTRAN(request_get_status, REQUEST_GET_STATUS,
                  (MPI_Fint * request, MPI_Fint* flag, void* status, MPI_Fint* ierr),
                  (request, flag, status, ierr))
MCORECOLL_FORTRAN(request_free, REQUEST_FREE, (MPI_Fint * request, MPI_Fint* ierr), (request, ierr))
