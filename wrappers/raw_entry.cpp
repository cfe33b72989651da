// Raw C entry arguments -> this build's MPI types, or untouched to the process's own MPI when
// it is not the MPI this library was built for.
#include <mpi.h>

#include <type_traits>

#include "abi_guard.hpp"
#include "dispatch.hpp"
#include "raw_abi.h"

namespace {

template <typename Handle>
Handle handle(mcorecoll_raw_t raw) {
  if constexpr (std::is_pointer_v<Handle>) return reinterpret_cast<Handle>(raw);
  else return static_cast<Handle>(raw);  // an int handle: the low bits of the register
}

int as_int(mcorecoll_raw_t raw) { return static_cast<int>(raw); }

// Calls the next definition of `name` with the same raw arguments.
template <typename... Args>
int forward(const char* name, Args... args) {
  using Fn = int (*)(Args...);
  static_assert(sizeof...(Args) <= 7, "entry points have at most 7 arguments");
  auto fn = reinterpret_cast<Fn>(mcorecoll::next_definition(name));
  return fn ? fn(args...) : MPI_ERR_INTERN;
}

}  // namespace

extern "C" {

int mcorecoll_raw_barrier(mcorecoll_raw_t comm) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Barrier", comm);
  return mcorecoll::barrier(handle<MPI_Comm>(comm));
}

int mcorecoll_raw_bcast(void* buffer, mcorecoll_raw_t count, mcorecoll_raw_t datatype,
                        mcorecoll_raw_t root, mcorecoll_raw_t comm) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Bcast", buffer, count, datatype, root, comm);
  return mcorecoll::bcast(buffer, as_int(count), handle<MPI_Datatype>(datatype), as_int(root),
                          handle<MPI_Comm>(comm));
}

int mcorecoll_raw_alltoall(const void* sendbuf, mcorecoll_raw_t sendcount,
                           mcorecoll_raw_t sendtype, void* recvbuf, mcorecoll_raw_t recvcount,
                           mcorecoll_raw_t recvtype, mcorecoll_raw_t comm) {
  if (mcorecoll::foreign_mpi())
    return forward("MPI_Alltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  return mcorecoll::alltoall(sendbuf, as_int(sendcount), handle<MPI_Datatype>(sendtype), recvbuf,
                             as_int(recvcount), handle<MPI_Datatype>(recvtype),
                             handle<MPI_Comm>(comm));
}

int mcorecoll_raw_finalize(void) {
  if (mcorecoll::foreign_mpi()) return forward("MPI_Finalize");
  return mcorecoll::finalize();
}

}  // extern "C"
