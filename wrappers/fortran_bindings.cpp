// Fortran entry points for every name mangling (mpi_x_, mpi_x__, mpi_x, MPI_X) and the
// mpi_f08 ones (mpi_x_f08_): both MPIs' Fortran bindings call PMPI_* (or internal code)
// directly, so a C-only shim would miss every Fortran program.
#include <mpi.h>

#include <string>
#include <vector>

#include "entry/abi_guard.hpp"
#include "entry/dispatch.hpp"
#include "fortran_sentinels.hpp"
#include "progress/completion.hpp"

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

void fortran_allreduce(const char* self, void* sendbuf, void* recvbuf, MPI_Fint* count, MPI_Fint* datatype,
                       MPI_Fint* op, MPI_Fint* comm, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi()) return forward(self, sendbuf, recvbuf, count, datatype, op, comm, ierr);
  set_ierr(ierr, mcorecoll::allreduce(c_buffer(sendbuf), c_buffer(recvbuf), *count, PMPI_Type_f2c(*datatype),
                                      PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm)));
}

void fortran_reduce(const char* self, void* sendbuf, void* recvbuf, MPI_Fint* count, MPI_Fint* datatype,
                    MPI_Fint* op, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi()) return forward(self, sendbuf, recvbuf, count, datatype, op, root, comm, ierr);
  set_ierr(ierr, mcorecoll::reduce(c_buffer(sendbuf), c_buffer(recvbuf), *count, PMPI_Type_f2c(*datatype),
                                   PMPI_Op_f2c(*op), *root, PMPI_Comm_f2c(*comm)));
}

void fortran_allgather(const char* self, void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype,
                       void* recvbuf, MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* comm,
                       MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi())
    return forward(self, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierr);
  set_ierr(ierr, mcorecoll::allgather(c_buffer(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype),
                                      c_buffer(recvbuf), *recvcount, PMPI_Type_f2c(*recvtype),
                                      PMPI_Comm_f2c(*comm)));
}

void fortran_iallreduce(const char* self, void* sendbuf, void* recvbuf, MPI_Fint* count, MPI_Fint* datatype,
                        MPI_Fint* op, MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi()) return forward(self, sendbuf, recvbuf, count, datatype, op, comm, request, ierr);
  MPI_Request r = MPI_REQUEST_NULL;
  set_ierr(ierr, mcorecoll::iallreduce(c_buffer(sendbuf), c_buffer(recvbuf), *count, PMPI_Type_f2c(*datatype),
                                       PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm), &r));
  *request = PMPI_Request_c2f(r);
}

void fortran_ireduce(const char* self, void* sendbuf, void* recvbuf, MPI_Fint* count, MPI_Fint* datatype,
                     MPI_Fint* op, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi())
    return forward(self, sendbuf, recvbuf, count, datatype, op, root, comm, request, ierr);
  MPI_Request r = MPI_REQUEST_NULL;
  set_ierr(ierr, mcorecoll::ireduce(c_buffer(sendbuf), c_buffer(recvbuf), *count, PMPI_Type_f2c(*datatype),
                                    PMPI_Op_f2c(*op), *root, PMPI_Comm_f2c(*comm), &r));
  *request = PMPI_Request_c2f(r);
}

void fortran_iallgather(const char* self, void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, void* recvbuf,
                        MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* comm, MPI_Fint* request,
                        MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi())
    return forward(self, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request, ierr);
  MPI_Request r = MPI_REQUEST_NULL;
  set_ierr(ierr, mcorecoll::iallgather(c_buffer(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype), c_buffer(recvbuf),
                                       *recvcount, PMPI_Type_f2c(*recvtype), PMPI_Comm_f2c(*comm), &r));
  *request = PMPI_Request_c2f(r);
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

// The completion and request calls: the Fortran handles and statuses to C, the C calls of
// completion.hpp (which serve mcorecoll's requests and give steps), and the results back.
// The MPI library's Fortran bindings are not called: MPICH's call the C MPI_ functions,
// which are ours, and would do the work twice.
constexpr MPI_Fint kFortranTrue = 1;  // gfortran's .TRUE., as both MPIs' bindings write it
constexpr std::size_t kStatusInts = sizeof(MPI_Status) / sizeof(MPI_Fint);  // MPI_STATUS_SIZE

MPI_Fint fortran_index(int c_index) { return c_index == MPI_UNDEFINED ? MPI_UNDEFINED : c_index + 1; }

// One status argument.
class FortranStatus {
 public:
  explicit FortranStatus(void* status) : f_(static_cast<MPI_Fint*>(status)), ignored_(mcorecoll::status_ignored(status)) {}
  MPI_Status* c() { return ignored_ ? MPI_STATUS_IGNORE : &c_; }
  void back() {
    if (!ignored_) PMPI_Status_c2f(&c_, f_);
  }

 private:
  MPI_Fint* f_;
  bool ignored_;
  MPI_Status c_{};
};

// An array of statuses.
class FortranStatuses {
 public:
  FortranStatuses(void* statuses, int count)
      : f_(static_cast<MPI_Fint*>(statuses)), ignored_(mcorecoll::statuses_ignored(statuses)),
        c_(ignored_ ? 0 : static_cast<std::size_t>(count > 0 ? count : 0)) {}
  MPI_Status* c() { return ignored_ ? MPI_STATUSES_IGNORE : c_.data(); }
  void back(int n) {
    if (ignored_) return;
    for (int i = 0; i < n; ++i) PMPI_Status_c2f(&c_[static_cast<std::size_t>(i)], f_ + static_cast<std::size_t>(i) * kStatusInts);
  }

 private:
  MPI_Fint* f_;
  bool ignored_;
  std::vector<MPI_Status> c_;
};

// An array of requests.
class FortranRequests {
 public:
  FortranRequests(MPI_Fint* requests, int count) : f_(requests), c_(static_cast<std::size_t>(count > 0 ? count : 0)) {
    for (std::size_t i = 0; i < c_.size(); ++i) c_[i] = PMPI_Request_f2c(f_[i]);
  }
  MPI_Request* c() { return c_.data(); }
  void back() {
    for (std::size_t i = 0; i < c_.size(); ++i) f_[i] = PMPI_Request_c2f(c_[i]);
  }

 private:
  MPI_Fint* f_;
  std::vector<MPI_Request> c_;
};

void fortran_wait(const char* self, MPI_Fint* request, void* status, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi()) return forward(self, request, status, ierr);
  MPI_Request r = PMPI_Request_f2c(*request);
  FortranStatus st(status);
  set_ierr(ierr, mcorecoll::wait(&r, st.c()));
  *request = PMPI_Request_c2f(r);
  st.back();
}

void fortran_test(const char* self, MPI_Fint* request, MPI_Fint* flag, void* status, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi()) return forward(self, request, flag, status, ierr);
  MPI_Request r = PMPI_Request_f2c(*request);
  FortranStatus st(status);
  int done = 0;
  set_ierr(ierr, mcorecoll::test(&r, &done, st.c()));
  *request = PMPI_Request_c2f(r);
  *flag = done ? kFortranTrue : 0;
  if (done) st.back();
}

void fortran_waitall(const char* self, MPI_Fint* count, MPI_Fint* requests, void* statuses, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi()) return forward(self, count, requests, statuses, ierr);
  FortranRequests rs(requests, *count);
  FortranStatuses st(statuses, *count);
  set_ierr(ierr, mcorecoll::waitall(*count, rs.c(), st.c()));
  rs.back();
  st.back(*count);
}

void fortran_testall(const char* self, MPI_Fint* count, MPI_Fint* requests, MPI_Fint* flag, void* statuses,
                     MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi()) return forward(self, count, requests, flag, statuses, ierr);
  FortranRequests rs(requests, *count);
  FortranStatuses st(statuses, *count);
  int done = 0;
  set_ierr(ierr, mcorecoll::testall(*count, rs.c(), &done, st.c()));
  rs.back();
  *flag = done ? kFortranTrue : 0;
  if (done) st.back(*count);
}

void fortran_waitany(const char* self, MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, void* status,
                     MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi()) return forward(self, count, requests, index, status, ierr);
  FortranRequests rs(requests, *count);
  FortranStatus st(status);
  int i = MPI_UNDEFINED;
  set_ierr(ierr, mcorecoll::waitany(*count, rs.c(), &i, st.c()));
  rs.back();
  *index = fortran_index(i);
  st.back();
}

void fortran_testany(const char* self, MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* flag,
                     void* status, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi()) return forward(self, count, requests, index, flag, status, ierr);
  FortranRequests rs(requests, *count);
  FortranStatus st(status);
  int i = MPI_UNDEFINED, done = 0;
  set_ierr(ierr, mcorecoll::testany(*count, rs.c(), &i, &done, st.c()));
  rs.back();
  *index = fortran_index(i);
  *flag = done ? kFortranTrue : 0;
  if (done) st.back();
}

template <typename Call>
void some(MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount, MPI_Fint* indices, void* statuses,
          MPI_Fint* ierr, Call call) {
  FortranRequests rs(requests, *incount);
  FortranStatuses st(statuses, *incount);
  std::vector<int> c_indices(static_cast<std::size_t>(*incount > 0 ? *incount : 0));
  int out = 0;
  set_ierr(ierr, call(*incount, rs.c(), &out, c_indices.data(), st.c()));
  rs.back();
  *outcount = out;
  if (out == MPI_UNDEFINED) return;
  for (int k = 0; k < out; ++k) indices[k] = c_indices[static_cast<std::size_t>(k)] + 1;
  st.back(out);
}

void fortran_waitsome(const char* self, MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount,
                      MPI_Fint* indices, void* statuses, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi()) return forward(self, incount, requests, outcount, indices, statuses, ierr);
  some(incount, requests, outcount, indices, statuses, ierr, mcorecoll::waitsome);
}

void fortran_testsome(const char* self, MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount,
                      MPI_Fint* indices, void* statuses, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi()) return forward(self, incount, requests, outcount, indices, statuses, ierr);
  some(incount, requests, outcount, indices, statuses, ierr, mcorecoll::testsome);
}

void fortran_request_get_status(const char* self, MPI_Fint* request, MPI_Fint* flag, void* status,
                                MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi()) return forward(self, request, flag, status, ierr);
  FortranStatus st(status);
  int done = 0;
  set_ierr(ierr, mcorecoll::request_get_status(PMPI_Request_f2c(*request), &done, st.c()));
  *flag = done ? kFortranTrue : 0;
  if (done) st.back();
}

void fortran_request_free(const char* self, MPI_Fint* request, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi()) return forward(self, request, ierr);
  MPI_Request r = PMPI_Request_f2c(*request);
  set_ierr(ierr, mcorecoll::request_free(&r));
  *request = PMPI_Request_c2f(r);
}

void fortran_start(const char* self, MPI_Fint* request, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi()) return forward(self, request, ierr);
  MPI_Request r = PMPI_Request_f2c(*request);
  set_ierr(ierr, mcorecoll::start(&r));
  *request = PMPI_Request_c2f(r);
}

void fortran_startall(const char* self, MPI_Fint* count, MPI_Fint* requests, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi()) return forward(self, count, requests, ierr);
  FortranRequests rs(requests, *count);
  set_ierr(ierr, mcorecoll::startall(*count, rs.c()));
  rs.back();
}

// The persistent collectives (MPI-4's MPI_X_INIT, Open MPI 4.1's MPIX_X_INIT).
void fortran_barrier_init(const char* self, MPI_Fint* comm, MPI_Fint* info, MPI_Fint* request, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi()) return forward(self, comm, info, request, ierr);
  MPI_Request r = MPI_REQUEST_NULL;
  set_ierr(ierr, mcorecoll::barrier_init(PMPI_Comm_f2c(*comm), PMPI_Info_f2c(*info), &r));
  *request = PMPI_Request_c2f(r);
}

void fortran_allreduce_init(const char* self, void* sendbuf, void* recvbuf, MPI_Fint* count, MPI_Fint* datatype,
                            MPI_Fint* op, MPI_Fint* comm, MPI_Fint* info, MPI_Fint* request, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi())
    return forward(self, sendbuf, recvbuf, count, datatype, op, comm, info, request, ierr);
  MPI_Request r = MPI_REQUEST_NULL;
  set_ierr(ierr, mcorecoll::allreduce_init(c_buffer(sendbuf), c_buffer(recvbuf), *count, PMPI_Type_f2c(*datatype),
                                           PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm), PMPI_Info_f2c(*info), &r));
  *request = PMPI_Request_c2f(r);
}

void fortran_reduce_init(const char* self, void* sendbuf, void* recvbuf, MPI_Fint* count, MPI_Fint* datatype,
                         MPI_Fint* op, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* info, MPI_Fint* request,
                         MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi())
    return forward(self, sendbuf, recvbuf, count, datatype, op, root, comm, info, request, ierr);
  MPI_Request r = MPI_REQUEST_NULL;
  set_ierr(ierr, mcorecoll::reduce_init(c_buffer(sendbuf), c_buffer(recvbuf), *count, PMPI_Type_f2c(*datatype),
                                        PMPI_Op_f2c(*op), *root, PMPI_Comm_f2c(*comm), PMPI_Info_f2c(*info), &r));
  *request = PMPI_Request_c2f(r);
}

void fortran_allgather_init(const char* self, void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype,
                            void* recvbuf, MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* comm, MPI_Fint* info,
                            MPI_Fint* request, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi())
    return forward(self, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request, ierr);
  MPI_Request r = MPI_REQUEST_NULL;
  set_ierr(ierr, mcorecoll::allgather_init(c_buffer(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype), c_buffer(recvbuf),
                                           *recvcount, PMPI_Type_f2c(*recvtype), PMPI_Comm_f2c(*comm),
                                           PMPI_Info_f2c(*info), &r));
  *request = PMPI_Request_c2f(r);
}

void fortran_bcast_init(const char* self, void* buffer, MPI_Fint* count, MPI_Fint* datatype, MPI_Fint* root,
                        MPI_Fint* comm, MPI_Fint* info, MPI_Fint* request, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi()) return forward(self, buffer, count, datatype, root, comm, info, request, ierr);
  MPI_Request r = MPI_REQUEST_NULL;
  set_ierr(ierr, mcorecoll::bcast_init(c_buffer(buffer), *count, PMPI_Type_f2c(*datatype), *root,
                                       PMPI_Comm_f2c(*comm), PMPI_Info_f2c(*info), &r));
  *request = PMPI_Request_c2f(r);
}

void fortran_alltoall_init(const char* self, void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype,
                           void* recvbuf, MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* comm, MPI_Fint* info,
                           MPI_Fint* request, MPI_Fint* ierr) {
  if (mcorecoll::foreign_mpi())
    return forward(self, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request, ierr);
  MPI_Request r = MPI_REQUEST_NULL;
  set_ierr(ierr, mcorecoll::alltoall_init(c_buffer(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype),
                                          c_buffer(recvbuf), *recvcount, PMPI_Type_f2c(*recvtype),
                                          PMPI_Comm_f2c(*comm), PMPI_Info_f2c(*info), &r));
  *request = PMPI_Request_c2f(r);
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
MCORECOLL_FORTRAN(allreduce, ALLREDUCE,
                  (void* sendbuf, void* recvbuf, MPI_Fint* count, MPI_Fint* datatype, MPI_Fint* op,
                   MPI_Fint* comm, MPI_Fint* ierr),
                  (sendbuf, recvbuf, count, datatype, op, comm, ierr))
MCORECOLL_FORTRAN(reduce, REDUCE,
                  (void* sendbuf, void* recvbuf, MPI_Fint* count, MPI_Fint* datatype, MPI_Fint* op,
                   MPI_Fint* root, MPI_Fint* comm, MPI_Fint* ierr),
                  (sendbuf, recvbuf, count, datatype, op, root, comm, ierr))
MCORECOLL_FORTRAN(allgather, ALLGATHER,
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
MCORECOLL_FORTRAN(start, START, (MPI_Fint * request, MPI_Fint* ierr), (request, ierr))
MCORECOLL_FORTRAN(startall, STARTALL, (MPI_Fint * count, MPI_Fint* requests, MPI_Fint* ierr), (count, requests, ierr))

// The persistent collectives under both names: MPI-4's (MPICH), the pcollreq extension's (Open MPI).
#define MCORECOLL_FORTRAN_PERSISTENT(lower, upper, params, args) \
  MCORECOLL_FORTRAN(lower, upper, params, args)                  \
  MCORECOLL_FORTRAN_NAME(mpix_##lower##_, fortran_##lower, params, args)  \
  MCORECOLL_FORTRAN_NAME(mpix_##lower##__, fortran_##lower, params, args) \
  MCORECOLL_FORTRAN_NAME(mpix_##lower, fortran_##lower, params, args)     \
  MCORECOLL_FORTRAN_NAME(MPIX_##upper, fortran_##lower, params, args)     \
  MCORECOLL_FORTRAN_NAME(mpix_##lower##_f08_, fortran_##lower, params, args)

MCORECOLL_FORTRAN_PERSISTENT(barrier_init, BARRIER_INIT,
                             (MPI_Fint * comm, MPI_Fint* info, MPI_Fint* request, MPI_Fint* ierr),
                             (comm, info, request, ierr))
MCORECOLL_FORTRAN_PERSISTENT(bcast_init, BCAST_INIT,
                             (void* buffer, MPI_Fint* count, MPI_Fint* datatype, MPI_Fint* root, MPI_Fint* comm,
                              MPI_Fint* info, MPI_Fint* request, MPI_Fint* ierr),
                             (buffer, count, datatype, root, comm, info, request, ierr))
MCORECOLL_FORTRAN_PERSISTENT(alltoall_init, ALLTOALL_INIT,
                             (void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, void* recvbuf,
                              MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* comm, MPI_Fint* info,
                              MPI_Fint* request, MPI_Fint* ierr),
                             (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request, ierr))
MCORECOLL_FORTRAN(iallreduce, IALLREDUCE,
                  (void* sendbuf, void* recvbuf, MPI_Fint* count, MPI_Fint* datatype, MPI_Fint* op,
                   MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr),
                  (sendbuf, recvbuf, count, datatype, op, comm, request, ierr))
MCORECOLL_FORTRAN(ireduce, IREDUCE,
                  (void* sendbuf, void* recvbuf, MPI_Fint* count, MPI_Fint* datatype, MPI_Fint* op,
                   MPI_Fint* root, MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr),
                  (sendbuf, recvbuf, count, datatype, op, root, comm, request, ierr))
MCORECOLL_FORTRAN(iallgather, IALLGATHER,
                  (void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, void* recvbuf,
                   MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr),
                  (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request, ierr))
MCORECOLL_FORTRAN_PERSISTENT(allreduce_init, ALLREDUCE_INIT,
                             (void* sendbuf, void* recvbuf, MPI_Fint* count, MPI_Fint* datatype, MPI_Fint* op,
                              MPI_Fint* comm, MPI_Fint* info, MPI_Fint* request, MPI_Fint* ierr),
                             (sendbuf, recvbuf, count, datatype, op, comm, info, request, ierr))
MCORECOLL_FORTRAN_PERSISTENT(reduce_init, REDUCE_INIT,
                             (void* sendbuf, void* recvbuf, MPI_Fint* count, MPI_Fint* datatype, MPI_Fint* op,
                              MPI_Fint* root, MPI_Fint* comm, MPI_Fint* info, MPI_Fint* request, MPI_Fint* ierr),
                             (sendbuf, recvbuf, count, datatype, op, root, comm, info, request, ierr))
MCORECOLL_FORTRAN_PERSISTENT(allgather_init, ALLGATHER_INIT,
                             (void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, void* recvbuf,
                              MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* comm, MPI_Fint* info,
                              MPI_Fint* request, MPI_Fint* ierr),
                             (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request, ierr))
