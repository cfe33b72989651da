// Raw C entry arguments of the calls that are not collectives -> this build's MPI types, or
// untouched to the next definition (the process's own MPI) when mcorecoll passes through.
#include <mpi.h>

#include "entry/abi_guard.hpp"
#include "entry/dispatch.hpp"
#include "next_definition.hpp"
#include "progress/completion.hpp"
#include "raw_abi.h"
#include "raw_handles.hpp"

using mcorecoll::as_int;
using mcorecoll::handle;
using mcorecoll::NextDefinition;

// The body of an entry point: passed through to the next definition of `name`, or `call`.
#define MCORECOLL_RAW(name, args, call)        \
  if (mcorecoll::passing_through()) {          \
    static NextDefinition next{name};          \
    return next.call_c args;                   \
  }                                            \
  return call

extern "C" {

int mcorecoll_raw_init(void* argc, void* argv) {
  MCORECOLL_RAW("MPI_Init", (argc, argv), mcorecoll::init(static_cast<int*>(argc), static_cast<char***>(argv)));
}

int mcorecoll_raw_init_thread(void* argc, void* argv, mcorecoll_raw_t required, void* provided) {
  MCORECOLL_RAW("MPI_Init_thread", (argc, argv, required, provided),
                mcorecoll::init_thread(static_cast<int*>(argc), static_cast<char***>(argv), as_int(required),
                                       static_cast<int*>(provided)));
}

int mcorecoll_raw_finalize(void) { MCORECOLL_RAW("MPI_Finalize", (), mcorecoll::finalize()); }

int mcorecoll_raw_wait(void* request, void* status) {
  MCORECOLL_RAW("MPI_Wait", (request, status),
                mcorecoll::wait(static_cast<MPI_Request*>(request), static_cast<MPI_Status*>(status)));
}

int mcorecoll_raw_test(void* request, void* flag, void* status) {
  MCORECOLL_RAW("MPI_Test", (request, flag, status),
                mcorecoll::test(static_cast<MPI_Request*>(request), static_cast<int*>(flag),
                                static_cast<MPI_Status*>(status)));
}

int mcorecoll_raw_waitall(mcorecoll_raw_t count, void* requests, void* statuses) {
  MCORECOLL_RAW("MPI_Waitall", (count, requests, statuses),
                mcorecoll::waitall(as_int(count), static_cast<MPI_Request*>(requests),
                                   static_cast<MPI_Status*>(statuses)));
}

int mcorecoll_raw_testall(mcorecoll_raw_t count, void* requests, void* flag, void* statuses) {
  MCORECOLL_RAW("MPI_Testall", (count, requests, flag, statuses),
                mcorecoll::testall(as_int(count), static_cast<MPI_Request*>(requests), static_cast<int*>(flag),
                                   static_cast<MPI_Status*>(statuses)));
}

int mcorecoll_raw_waitany(mcorecoll_raw_t count, void* requests, void* index, void* status) {
  MCORECOLL_RAW("MPI_Waitany", (count, requests, index, status),
                mcorecoll::waitany(as_int(count), static_cast<MPI_Request*>(requests), static_cast<int*>(index),
                                   static_cast<MPI_Status*>(status)));
}

int mcorecoll_raw_testany(mcorecoll_raw_t count, void* requests, void* index, void* flag, void* status) {
  MCORECOLL_RAW("MPI_Testany", (count, requests, index, flag, status),
                mcorecoll::testany(as_int(count), static_cast<MPI_Request*>(requests), static_cast<int*>(index),
                                   static_cast<int*>(flag), static_cast<MPI_Status*>(status)));
}

int mcorecoll_raw_waitsome(mcorecoll_raw_t incount, void* requests, void* outcount, void* indices,
                           void* statuses) {
  MCORECOLL_RAW("MPI_Waitsome", (incount, requests, outcount, indices, statuses),
                mcorecoll::waitsome(as_int(incount), static_cast<MPI_Request*>(requests),
                                    static_cast<int*>(outcount), static_cast<int*>(indices),
                                    static_cast<MPI_Status*>(statuses)));
}

int mcorecoll_raw_testsome(mcorecoll_raw_t incount, void* requests, void* outcount, void* indices,
                           void* statuses) {
  MCORECOLL_RAW("MPI_Testsome", (incount, requests, outcount, indices, statuses),
                mcorecoll::testsome(as_int(incount), static_cast<MPI_Request*>(requests),
                                    static_cast<int*>(outcount), static_cast<int*>(indices),
                                    static_cast<MPI_Status*>(statuses)));
}

int mcorecoll_raw_request_get_status(mcorecoll_raw_t request, void* flag, void* status) {
  MCORECOLL_RAW("MPI_Request_get_status", (request, flag, status),
                mcorecoll::request_get_status(handle<MPI_Request>(request), static_cast<int*>(flag),
                                              static_cast<MPI_Status*>(status)));
}

int mcorecoll_raw_request_free(void* request) {
  MCORECOLL_RAW("MPI_Request_free", (request), mcorecoll::request_free(static_cast<MPI_Request*>(request)));
}

int mcorecoll_raw_start(void* request) {
  MCORECOLL_RAW("MPI_Start", (request), mcorecoll::start(static_cast<MPI_Request*>(request)));
}

int mcorecoll_raw_startall(mcorecoll_raw_t count, void* requests) {
  MCORECOLL_RAW("MPI_Startall", (count, requests),
                mcorecoll::startall(as_int(count), static_cast<MPI_Request*>(requests)));
}

}  // extern "C"
