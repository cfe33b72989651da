// Fortran entry points of the calls that are not collectives, for every name mangling (mpi_x_,
// mpi_x__, mpi_x, MPI_X) and mpi_f08's (mpi_x_f08_): MPI_INIT, MPI_INIT_THREAD, MPI_FINALIZE,
// MPI_COMM_DUP(_WITH_INFO), MPI_COMM_SPLIT(_TYPE), MPI_COMM_CREATE(_GROUP), MPI_CART_CREATE, MPI_CART_SUB,
// MPI_GRAPH_CREATE, MPI_DIST_GRAPH_CREATE(_ADJACENT) and the completion and request calls. Both MPIs' Fortran bindings call PMPI_* (or internal
// code) directly, so a C-only shim would miss every Fortran program. The collectives' are
// generated (generate_bindings.py).
#include <mpi.h>

#include <vector>

#include "entry/abi_guard.hpp"
#include "entry/dispatch.hpp"
#include "entry/runtime.hpp"
#include "fortran_common.hpp"
#include "fortran_sentinels.hpp"
#include "next_definition.hpp"
#include "progress/completion.hpp"
#include "raw_abi.h"

namespace {

using mcorecoll::set_ierr;

// MPI_INIT and MPI_INIT_THREAD: the MPI library's own binding, then what mcorecoll does once
// MPI runs (MPICH's binding calls the C MPI_Init, ours, which did it already: it runs once).
void fortran_init(mcorecoll::NextDefinition& self, MPI_Fint* ierr) {
  self.call_fortran(ierr);
  if (!mcorecoll::passing_through()) mcorecoll::after_init();
}

void fortran_init_thread(mcorecoll::NextDefinition& self, MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr) {
  self.call_fortran(required, provided, ierr);
  if (!mcorecoll::passing_through()) mcorecoll::after_init();
}

void fortran_finalize(mcorecoll::NextDefinition& self, MPI_Fint* ierr) {
  if (mcorecoll::passing_through()) return self.call_fortran(ierr);
  set_ierr(ierr, mcorecoll::finalize());
}

// A communicator made by `make` (a C call of entry/runtime.hpp, given where to put it) handed
// back as a Fortran handle, with its error code.
template <class Make>
void hand_back(Make make, MPI_Fint* newcomm, MPI_Fint* ierr) {
  MPI_Comm made = MPI_COMM_NULL;
  const int rc = make(&made);
  if (rc == MPI_SUCCESS) *newcomm = PMPI_Comm_c2f(made);
  set_ierr(ierr, rc);
}

// MPI_COMM_DUP: the C call of entry/runtime.hpp (the MPI library's duplication, then the
// duplicate's set-up where its parent's duplicates are set up at their making). The MPI
// library's binding is not called: MPICH's calls the C MPI_Comm_dup, which is ours.
void fortran_comm_dup(mcorecoll::NextDefinition& self, MPI_Fint* comm, MPI_Fint* newcomm, MPI_Fint* ierr) {
  if (mcorecoll::passing_through()) return self.call_fortran(comm, newcomm, ierr);
  hand_back([&](MPI_Comm* made) {
    return mcorecoll::comm_dup(PMPI_Comm_f2c(*comm), false, MPI_INFO_NULL, made);
  }, newcomm, ierr);
}

// MPI_COMM_SPLIT: the C call of entry/runtime.hpp, as MPI_COMM_DUP.
void fortran_comm_split(mcorecoll::NextDefinition& self, MPI_Fint* comm, MPI_Fint* color, MPI_Fint* key,
                        MPI_Fint* newcomm, MPI_Fint* ierr) {
  if (mcorecoll::passing_through()) return self.call_fortran(comm, color, key, newcomm, ierr);
  hand_back([&](MPI_Comm* made) {
    return mcorecoll::comm_split(PMPI_Comm_f2c(*comm), *color, *key, made);
  }, newcomm, ierr);
}

// MPI_COMM_DUP_WITH_INFO, MPI_COMM_SPLIT_TYPE, MPI_COMM_CREATE(_GROUP): the same.
void fortran_comm_dup_with_info(mcorecoll::NextDefinition& self, MPI_Fint* comm, MPI_Fint* info, MPI_Fint* newcomm,
                                MPI_Fint* ierr) {
  if (mcorecoll::passing_through()) return self.call_fortran(comm, info, newcomm, ierr);
  hand_back([&](MPI_Comm* made) {
    return mcorecoll::comm_dup(PMPI_Comm_f2c(*comm), true, PMPI_Info_f2c(*info), made);
  }, newcomm, ierr);
}

void fortran_comm_split_type(mcorecoll::NextDefinition& self, MPI_Fint* comm, MPI_Fint* type, MPI_Fint* key,
                             MPI_Fint* info, MPI_Fint* newcomm, MPI_Fint* ierr) {
  if (mcorecoll::passing_through()) return self.call_fortran(comm, type, key, info, newcomm, ierr);
  hand_back([&](MPI_Comm* made) {
    return mcorecoll::comm_split_type(PMPI_Comm_f2c(*comm), *type, *key, PMPI_Info_f2c(*info), made);
  }, newcomm, ierr);
}

void fortran_comm_create(mcorecoll::NextDefinition& self, MPI_Fint* comm, MPI_Fint* group, MPI_Fint* newcomm,
                         MPI_Fint* ierr) {
  if (mcorecoll::passing_through()) return self.call_fortran(comm, group, newcomm, ierr);
  hand_back([&](MPI_Comm* made) {
    return mcorecoll::comm_create(PMPI_Comm_f2c(*comm), PMPI_Group_f2c(*group), made);
  }, newcomm, ierr);
}

void fortran_comm_create_group(mcorecoll::NextDefinition& self, MPI_Fint* comm, MPI_Fint* group, MPI_Fint* tag,
                               MPI_Fint* newcomm, MPI_Fint* ierr) {
  if (mcorecoll::passing_through()) return self.call_fortran(comm, group, tag, newcomm, ierr);
  hand_back([&](MPI_Comm* made) {
    return mcorecoll::comm_create_group(PMPI_Comm_f2c(*comm), PMPI_Group_f2c(*group), *tag, made);
  }, newcomm, ierr);
}

// MPI_CART_CREATE and MPI_CART_SUB: their LOGICAL arguments as C ints (both MPIs' bindings
// read a LOGICAL as false where it is 0, gfortran's .FALSE.). A communicator that is not a
// grid goes to the MPI library's binding, which names the error.
std::vector<int> c_logicals(const MPI_Fint* logicals, int n) {
  std::vector<int> out(static_cast<std::size_t>(n > 0 ? n : 0));
  for (int i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = logicals[i] != 0;
  return out;
}

void fortran_cart_create(mcorecoll::NextDefinition& self, MPI_Fint* comm, MPI_Fint* ndims, MPI_Fint* dims,
                         MPI_Fint* periods, MPI_Fint* reorder, MPI_Fint* newcomm, MPI_Fint* ierr) {
  if (mcorecoll::passing_through() || *ndims < 0)
    return self.call_fortran(comm, ndims, dims, periods, reorder, newcomm, ierr);
  const std::vector<int> c_dims(dims, dims + *ndims), c_periods = c_logicals(periods, *ndims);
  hand_back([&](MPI_Comm* made) {
    return mcorecoll::cart_create(PMPI_Comm_f2c(*comm), *ndims, c_dims.data(), c_periods.data(), *reorder != 0, made);
  }, newcomm, ierr);
}

void fortran_cart_sub(mcorecoll::NextDefinition& self, MPI_Fint* comm, MPI_Fint* remain_dims, MPI_Fint* newcomm,
                      MPI_Fint* ierr) {
  int kind = MPI_UNDEFINED, ndims = 0;
  const MPI_Comm c = mcorecoll::passing_through() ? MPI_COMM_NULL : PMPI_Comm_f2c(*comm);
  if (c != MPI_COMM_NULL) PMPI_Topo_test(c, &kind);
  if (kind != MPI_CART) return self.call_fortran(comm, remain_dims, newcomm, ierr);
  PMPI_Cartdim_get(c, &ndims);
  const std::vector<int> remain = c_logicals(remain_dims, ndims);
  hand_back([&](MPI_Comm* made) { return mcorecoll::cart_sub(c, remain.data(), made); }, newcomm, ierr);
}

// The graphs: the MPI library's own binding makes the part (it reads MPI_UNWEIGHTED,
// MPI_WEIGHTS_EMPTY and LOGICALs as its compiler does), inside part_made_by(), which sets it up.
// `binding(e)` calls it with the error code's place `e`: ours, as mpi_f08's IERROR is optional.
template <class Binding>
void fortran_part(MPI_Fint* comm, const char* call, Binding binding, MPI_Fint* newcomm, MPI_Fint* ierr) {
  MPI_Comm made = MPI_COMM_NULL;
  MPI_Fint e = MPI_SUCCESS;
  mcorecoll::part_made_by(PMPI_Comm_f2c(*comm), call, &made, [&] {
    binding(&e);
    if (e == MPI_SUCCESS) made = PMPI_Comm_f2c(*newcomm);
    return static_cast<int>(e);
  });
  set_ierr(ierr, e);
}

void fortran_graph_create(mcorecoll::NextDefinition& self, MPI_Fint* comm, MPI_Fint* nnodes, MPI_Fint* index,
                          MPI_Fint* edges, MPI_Fint* reorder, MPI_Fint* newcomm, MPI_Fint* ierr) {
  auto binding = [&](MPI_Fint* e) { self.call_fortran(comm, nnodes, index, edges, reorder, newcomm, e); };
  if (mcorecoll::passing_through()) return binding(ierr);
  fortran_part(comm, "MPI_Graph_create", binding, newcomm, ierr);
}

void fortran_dist_graph_create(mcorecoll::NextDefinition& self, MPI_Fint* comm, MPI_Fint* n, MPI_Fint* sources,
                               MPI_Fint* degrees, MPI_Fint* destinations, MPI_Fint* weights, MPI_Fint* info,
                               MPI_Fint* reorder, MPI_Fint* newcomm, MPI_Fint* ierr) {
  auto binding = [&](MPI_Fint* e) {
    self.call_fortran(comm, n, sources, degrees, destinations, weights, info, reorder, newcomm, e);
  };
  if (mcorecoll::passing_through()) return binding(ierr);
  fortran_part(comm, "MPI_Dist_graph_create", binding, newcomm, ierr);
}

void fortran_dist_graph_create_adjacent(mcorecoll::NextDefinition& self, MPI_Fint* comm, MPI_Fint* indegree,
                                        MPI_Fint* sources, MPI_Fint* sourceweights, MPI_Fint* outdegree,
                                        MPI_Fint* destinations, MPI_Fint* destweights, MPI_Fint* info,
                                        MPI_Fint* reorder, MPI_Fint* newcomm, MPI_Fint* ierr) {
  auto binding = [&](MPI_Fint* e) {
    self.call_fortran(comm, indegree, sources, sourceweights, outdegree, destinations, destweights, info, reorder,
                      newcomm, e);
  };
  if (mcorecoll::passing_through()) return binding(ierr);
  fortran_part(comm, "MPI_Dist_graph_create_adjacent", binding, newcomm, ierr);
}

// Whether the request calls go straight to the MPI library's binding: mcorecoll holds no
// request or operation (most of the time), or it passes through (raw_abi.h's gate says both).
bool pass_through_requests() {
  return __builtin_expect(__atomic_load_n(&mcorecoll_fast.users, __ATOMIC_RELAXED) == 0, 1) ||
         mcorecoll::passing_through();
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

void fortran_wait(mcorecoll::NextDefinition& self, MPI_Fint* request, void* status, MPI_Fint* ierr) {
  if (pass_through_requests()) return self.call_fortran(request, status, ierr);
  MPI_Request r = PMPI_Request_f2c(*request);
  FortranStatus st(status);
  set_ierr(ierr, mcorecoll::wait(&r, st.c()));
  *request = PMPI_Request_c2f(r);
  st.back();
}

void fortran_test(mcorecoll::NextDefinition& self, MPI_Fint* request, MPI_Fint* flag, void* status, MPI_Fint* ierr) {
  if (pass_through_requests()) return self.call_fortran(request, flag, status, ierr);
  MPI_Request r = PMPI_Request_f2c(*request);
  FortranStatus st(status);
  int done = 0;
  set_ierr(ierr, mcorecoll::test(&r, &done, st.c()));
  *request = PMPI_Request_c2f(r);
  *flag = done ? kFortranTrue : 0;
  if (done) st.back();
}

void fortran_waitall(mcorecoll::NextDefinition& self, MPI_Fint* count, MPI_Fint* requests, void* statuses, MPI_Fint* ierr) {
  if (pass_through_requests()) return self.call_fortran(count, requests, statuses, ierr);
  FortranRequests rs(requests, *count);
  FortranStatuses st(statuses, *count);
  set_ierr(ierr, mcorecoll::waitall(*count, rs.c(), st.c()));
  rs.back();
  st.back(*count);
}

void fortran_testall(mcorecoll::NextDefinition& self, MPI_Fint* count, MPI_Fint* requests, MPI_Fint* flag, void* statuses,
                     MPI_Fint* ierr) {
  if (pass_through_requests()) return self.call_fortran(count, requests, flag, statuses, ierr);
  FortranRequests rs(requests, *count);
  FortranStatuses st(statuses, *count);
  int done = 0;
  set_ierr(ierr, mcorecoll::testall(*count, rs.c(), &done, st.c()));
  rs.back();
  *flag = done ? kFortranTrue : 0;
  if (done) st.back(*count);
}

void fortran_waitany(mcorecoll::NextDefinition& self, MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, void* status,
                     MPI_Fint* ierr) {
  if (pass_through_requests()) return self.call_fortran(count, requests, index, status, ierr);
  FortranRequests rs(requests, *count);
  FortranStatus st(status);
  int i = MPI_UNDEFINED;
  set_ierr(ierr, mcorecoll::waitany(*count, rs.c(), &i, st.c()));
  rs.back();
  *index = fortran_index(i);
  st.back();
}

void fortran_testany(mcorecoll::NextDefinition& self, MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* flag,
                     void* status, MPI_Fint* ierr) {
  if (pass_through_requests()) return self.call_fortran(count, requests, index, flag, status, ierr);
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

void fortran_waitsome(mcorecoll::NextDefinition& self, MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount,
                      MPI_Fint* indices, void* statuses, MPI_Fint* ierr) {
  if (pass_through_requests()) return self.call_fortran(incount, requests, outcount, indices, statuses, ierr);
  some(incount, requests, outcount, indices, statuses, ierr, mcorecoll::waitsome);
}

void fortran_testsome(mcorecoll::NextDefinition& self, MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount,
                      MPI_Fint* indices, void* statuses, MPI_Fint* ierr) {
  if (pass_through_requests()) return self.call_fortran(incount, requests, outcount, indices, statuses, ierr);
  some(incount, requests, outcount, indices, statuses, ierr, mcorecoll::testsome);
}

void fortran_request_get_status(mcorecoll::NextDefinition& self, MPI_Fint* request, MPI_Fint* flag, void* status,
                                MPI_Fint* ierr) {
  if (pass_through_requests()) return self.call_fortran(request, flag, status, ierr);
  FortranStatus st(status);
  int done = 0;
  set_ierr(ierr, mcorecoll::request_get_status(PMPI_Request_f2c(*request), &done, st.c()));
  *flag = done ? kFortranTrue : 0;
  if (done) st.back();
}

void fortran_request_free(mcorecoll::NextDefinition& self, MPI_Fint* request, MPI_Fint* ierr) {
  if (pass_through_requests()) return self.call_fortran(request, ierr);
  MPI_Request r = PMPI_Request_f2c(*request);
  set_ierr(ierr, mcorecoll::request_free(&r));
  *request = PMPI_Request_c2f(r);
}

void fortran_start(mcorecoll::NextDefinition& self, MPI_Fint* request, MPI_Fint* ierr) {
  if (pass_through_requests()) return self.call_fortran(request, ierr);
  MPI_Request r = PMPI_Request_f2c(*request);
  set_ierr(ierr, mcorecoll::start(&r));
  *request = PMPI_Request_c2f(r);
}

void fortran_startall(mcorecoll::NextDefinition& self, MPI_Fint* count, MPI_Fint* requests, MPI_Fint* ierr) {
  if (pass_through_requests()) return self.call_fortran(count, requests, ierr);
  FortranRequests rs(requests, *count);
  set_ierr(ierr, mcorecoll::startall(*count, rs.c()));
  rs.back();
}

}  // namespace

// One definition per name mangling, each with its own next definition, forwarding to the shared
// implementation; or, where a tool loaded after mcorecoll defines the name, to the tool (its
// call of the profiling name comes back to mcorecoll through the MPI library's Fortran binding,
// which calls the C PMPI_ or MPI_ name). `args` is a parenthesised list, unwrapped by
// MCORECOLL_UNPAREN.
#define MCORECOLL_UNPAREN(...) __VA_ARGS__
#define MCORECOLL_FORTRAN_NAME(symbol, profiling, impl, params, args)     \
  extern "C" MCORECOLL_EXPORT void symbol params {                       \
    static mcorecoll::ToolAfter tool{#symbol, #profiling};               \
    if (tool.found()) return tool.call_fortran(MCORECOLL_UNPAREN args);  \
    static mcorecoll::NextDefinition self{#symbol};                      \
    impl(self, MCORECOLL_UNPAREN args);                                  \
  }
#define MCORECOLL_FORTRAN(lower, upper, params, args)                                            \
  MCORECOLL_FORTRAN_NAME(mpi_##lower##_, pmpi_##lower##_, fortran_##lower, params, args)         \
  MCORECOLL_FORTRAN_NAME(mpi_##lower##__, pmpi_##lower##__, fortran_##lower, params, args)       \
  MCORECOLL_FORTRAN_NAME(mpi_##lower, pmpi_##lower, fortran_##lower, params, args)               \
  MCORECOLL_FORTRAN_NAME(MPI_##upper, PMPI_##upper, fortran_##lower, params, args)               \
  MCORECOLL_FORTRAN_NAME(mpi_##lower##_f08_, pmpi_##lower##_f08_, fortran_##lower, params, args)

MCORECOLL_FORTRAN(init, INIT, (MPI_Fint * ierr), (ierr))
MCORECOLL_FORTRAN(init_thread, INIT_THREAD, (MPI_Fint * required, MPI_Fint* provided, MPI_Fint* ierr),
                  (required, provided, ierr))
MCORECOLL_FORTRAN(finalize, FINALIZE, (MPI_Fint * ierr), (ierr))
MCORECOLL_FORTRAN(comm_dup, COMM_DUP, (MPI_Fint * comm, MPI_Fint* newcomm, MPI_Fint* ierr), (comm, newcomm, ierr))
MCORECOLL_FORTRAN(comm_dup_with_info, COMM_DUP_WITH_INFO,
                  (MPI_Fint * comm, MPI_Fint* info, MPI_Fint* newcomm, MPI_Fint* ierr),
                  (comm, info, newcomm, ierr))
MCORECOLL_FORTRAN(comm_split_type, COMM_SPLIT_TYPE,
                  (MPI_Fint * comm, MPI_Fint* type, MPI_Fint* key, MPI_Fint* info, MPI_Fint* newcomm, MPI_Fint* ierr),
                  (comm, type, key, info, newcomm, ierr))
MCORECOLL_FORTRAN(comm_create, COMM_CREATE, (MPI_Fint * comm, MPI_Fint* group, MPI_Fint* newcomm, MPI_Fint* ierr),
                  (comm, group, newcomm, ierr))
MCORECOLL_FORTRAN(comm_create_group, COMM_CREATE_GROUP,
                  (MPI_Fint * comm, MPI_Fint* group, MPI_Fint* tag, MPI_Fint* newcomm, MPI_Fint* ierr),
                  (comm, group, tag, newcomm, ierr))
MCORECOLL_FORTRAN(cart_create, CART_CREATE,
                  (MPI_Fint * comm, MPI_Fint* ndims, MPI_Fint* dims, MPI_Fint* periods, MPI_Fint* reorder,
                   MPI_Fint* newcomm, MPI_Fint* ierr),
                  (comm, ndims, dims, periods, reorder, newcomm, ierr))
MCORECOLL_FORTRAN(cart_sub, CART_SUB, (MPI_Fint * comm, MPI_Fint* remain_dims, MPI_Fint* newcomm, MPI_Fint* ierr),
                  (comm, remain_dims, newcomm, ierr))
MCORECOLL_FORTRAN(graph_create, GRAPH_CREATE,
                  (MPI_Fint * comm, MPI_Fint* nnodes, MPI_Fint* index, MPI_Fint* edges, MPI_Fint* reorder,
                   MPI_Fint* newcomm, MPI_Fint* ierr),
                  (comm, nnodes, index, edges, reorder, newcomm, ierr))
MCORECOLL_FORTRAN(dist_graph_create, DIST_GRAPH_CREATE,
                  (MPI_Fint * comm, MPI_Fint* n, MPI_Fint* sources, MPI_Fint* degrees, MPI_Fint* destinations,
                   MPI_Fint* weights, MPI_Fint* info, MPI_Fint* reorder, MPI_Fint* newcomm, MPI_Fint* ierr),
                  (comm, n, sources, degrees, destinations, weights, info, reorder, newcomm, ierr))
MCORECOLL_FORTRAN(dist_graph_create_adjacent, DIST_GRAPH_CREATE_ADJACENT,
                  (MPI_Fint * comm, MPI_Fint* indegree, MPI_Fint* sources, MPI_Fint* sourceweights,
                   MPI_Fint* outdegree, MPI_Fint* destinations, MPI_Fint* destweights, MPI_Fint* info,
                   MPI_Fint* reorder, MPI_Fint* newcomm, MPI_Fint* ierr),
                  (comm, indegree, sources, sourceweights, outdegree, destinations, destweights, info, reorder,
                   newcomm, ierr))
MCORECOLL_FORTRAN(comm_split, COMM_SPLIT,
                  (MPI_Fint * comm, MPI_Fint* color, MPI_Fint* key, MPI_Fint* newcomm, MPI_Fint* ierr),
                  (comm, color, key, newcomm, ierr))
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

