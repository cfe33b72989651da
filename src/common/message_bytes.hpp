// One rank's side of a message as bytes in type-signature order: the user's buffer itself
// when its datatype lays the data out contiguously in that order, otherwise a packed copy.
// Root and leaves may use different datatypes of one signature; each side handles its own.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace mcorecoll {

class MessageBytes {
 public:
  // `bytes`: the signature size (count x type size), already computed by the caller.
  MessageBytes(void* buffer, int count, MPI_Datatype type, std::uint64_t bytes);
  ~MessageBytes();
  MessageBytes(const MessageBytes&) = delete;  // data() may point into packed_
  MessageBytes& operator=(const MessageBytes&) = delete;

  char* data() { return data_; }
  std::uint64_t size() const { return bytes_; }
  bool contiguous() const { return packed_.empty(); }

  // Source side: bring the user's data into data() (a no-op when contiguous).
  void pack();
  // Receiving side: deliver data() into the user's buffer (a no-op when contiguous).
  void unpack();
  // For an operation that outlives its call (non-blocking, persistent): keeps its own
  // duplicate of a derived datatype that packing needs, as the application may free its own
  // once the call has returned.
  void hold_type();

 private:
  void* buffer_;
  int count_;
  MPI_Datatype type_;
  std::uint64_t bytes_;
  std::vector<char> packed_;
  char* data_ = nullptr;
  bool held_ = false;  // type_ is our duplicate
};

// One rank's two sides of an alltoall over `ranks` ranks, `total` bytes each. With
// MPI_IN_PLACE the send side describes the receive buffer as it is before the call. The
// caller packs the send side (send.pack()) when the call starts.
struct AlltoallBytes {
  AlltoallBytes(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int ranks, std::uint64_t total);
  bool in_place;
  MessageBytes recv;
  MessageBytes send;
};

// Whether `type` is a named (predefined) datatype.
bool is_named(MPI_Datatype type);

// Whether `count` elements of `type` (`bytes` of signature in all) occupy [true lower bound,
// true lower bound + bytes) in signature order, for every type, named or derived: decided from
// size, extent and true extent, and for derived types from how they were built (a gap-free
// struct may still be out of signature order). Sets *offset to the true lower bound.
// Conservative: unknown layouts say no.
bool contiguous_layout(MPI_Datatype type, int count, std::uint64_t bytes, MPI_Aint* offset);

}  // namespace mcorecoll
