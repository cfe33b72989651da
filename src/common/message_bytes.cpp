#include "common/message_bytes.hpp"

#include <string>

#include "common/log.hpp"
#include "common/named_types.hpp"
#include "common/stop_job.hpp"

namespace mcorecoll {

bool is_named(MPI_Datatype type) {
  int integers = 0, addresses = 0, types = 0, combiner = -1;  // -1: not a type the library knows
  PMPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner);
  return combiner == MPI_COMBINER_NAMED;
}

namespace {

struct Layout {
  int size = 0;
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
};

Layout layout_of(MPI_Datatype type) {
  Layout l;
  PMPI_Type_size(type, &l.size);
  PMPI_Type_get_extent(type, &l.lb, &l.extent);
  PMPI_Type_get_true_extent(type, &l.true_lb, &l.true_extent);
  return l;
}

// True when one element of `type` (`l`: its layout) is its size bytes, gap-free and in
// signature order, starting at its true lower bound. Decided from size and true extent for
// every type, named ones included: a named type is not necessarily gap-free (MPI_DOUBLE_INT is
// 12 bytes of data in a 16-byte extent), and the gaps of a receive buffer must not be written.
// Derived types must also keep signature order: only the combiners whose layout is plain are
// followed. Named gap-free types are remembered (named_types.hpp).
bool element_contiguous(MPI_Datatype type, const Layout& l) {
  if (l.true_extent != l.size) return false;
  int integers, addresses, types, combiner;
  PMPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner);
  if (combiner == MPI_COMBINER_NAMED) {
    remember_named_layout(type, {l.extent, l.true_lb, l.true_extent, l.size});
    return true;
  }
  if (combiner != MPI_COMBINER_DUP && combiner != MPI_COMBINER_CONTIGUOUS &&
      combiner != MPI_COMBINER_RESIZED)
    return false;
  std::vector<int> ints(static_cast<std::size_t>(integers) + 1);
  std::vector<MPI_Aint> addrs(static_cast<std::size_t>(addresses) + 1);
  std::vector<MPI_Datatype> inner(static_cast<std::size_t>(types) + 1);
  PMPI_Type_get_contents(type, integers, addresses, types, ints.data(), addrs.data(), inner.data());
  MPI_Datatype child = inner[0];
  const Layout c = layout_of(child);
  bool plain = element_contiguous(child, c);
  // Repeated children must follow each other without gaps.
  if (combiner == MPI_COMBINER_CONTIGUOUS && ints[0] > 1) plain = plain && c.extent == c.size;
  if (!is_named(child)) PMPI_Type_free(&child);
  return plain;
}

}  // namespace

bool contiguous_layout(MPI_Datatype type, int count, std::uint64_t bytes, MPI_Aint* offset) {
  *offset = 0;
  if (count <= 0 || bytes == 0) return true;  // nothing moves
  if (const NamedLayout* named = find_named_layout(type)) {  // the common case: no query
    *offset = named->true_lb;
    return named->true_extent == named->size && (count == 1 || named->extent == named->size);
  }
  const Layout l = layout_of(type);
  *offset = l.true_lb;
  if (l.true_extent != l.size || (count > 1 && l.extent != l.size)) return false;
  return element_contiguous(type, l);
}

MessageBytes::MessageBytes(void* buffer, int count, MPI_Datatype type, std::uint64_t bytes)
    : buffer_(buffer), count_(count), type_(type), bytes_(bytes) {
  MPI_Aint offset = 0;
  if (contiguous_layout(type, count, bytes, &offset)) {
    data_ = static_cast<char*>(buffer) + offset;  // MPI_BOTTOM + absolute address works too
  } else {
    packed_.resize(bytes);
    data_ = packed_.data();
  }
}

namespace {

// MPICH 4.0 rejects MPI_BOTTOM as the buffer of MPI_Pack/MPI_Unpack ("Null pointer in
// parameter inbuf"), though absolute addresses are legal. Same data, no null buffer: a
// non-null base address and the datatype shifted back by it.
class BottomFree {
 public:
  BottomFree(void* buffer, int count, MPI_Datatype type) : buffer_(buffer), count_(count), type_(type) {
    if (buffer != MPI_BOTTOM) return;
    static char base;
    int one = 1;
    MPI_Aint shift = -reinterpret_cast<MPI_Aint>(&base);
    MPI_Datatype whole;
    PMPI_Type_contiguous(count, type, &whole);
    PMPI_Type_create_struct(1, &one, &shift, &whole, &shifted_);
    PMPI_Type_commit(&shifted_);
    PMPI_Type_free(&whole);
    buffer_ = &base;
    count_ = 1;
    type_ = shifted_;
  }
  ~BottomFree() {
    if (shifted_ != MPI_DATATYPE_NULL) PMPI_Type_free(&shifted_);
  }
  void* buffer() const { return buffer_; }
  int count() const { return count_; }
  MPI_Datatype type() const { return type_; }

 private:
  void* buffer_;
  int count_;
  MPI_Datatype type_;
  MPI_Datatype shifted_ = MPI_DATATYPE_NULL;
};

}  // namespace

void MessageBytes::pack() {
  if (packed_.empty()) return;
  int position = 0;
  const BottomFree in(buffer_, count_, type_);
  // On the node's own ranks the packed form is the native one: MPI_COMM_SELF gives it, and stays valid
  // when the application frees its communicator while an operation is still in flight.
  PMPI_Pack(in.buffer(), in.count(), in.type(), packed_.data(), static_cast<int>(bytes_), &position, MPI_COMM_SELF);
  // On a homogeneous node, MPI_Pack writes the signature's bytes as they are.
  if (static_cast<std::uint64_t>(position) != bytes_) {
    say("error: MPI_Pack wrote " + std::to_string(position) + " bytes for a " +
        std::to_string(bytes_) + "-byte message; mcorecoll needs native packing. Set MCORECOLL_DISABLE=1.");
    stop_job(MPI_COMM_NULL);
  }
}

namespace {

// Bytes that MPI_Pack writes for one element of `type` at `buffer`.
int packed_bytes_of_one(void* buffer, MPI_Datatype type) {
  int size = 0, position = 0;
  PMPI_Pack_size(1, type, MPI_COMM_SELF, &size);
  std::vector<char> scratch(static_cast<std::size_t>(size) + 1);
  PMPI_Pack(buffer, 1, type, scratch.data(), size, &position, MPI_COMM_SELF);
  return position;
}

}  // namespace

void MessageBytes::hold_type() {
  if (packed_.empty() || held_ || is_named(type_) || buffer_ == MPI_BOTTOM) return;
  // A type of our own with the same layout (the application may free its own). MPICH 4.0.2
  // packed nothing through such a copy (MPI_Type_dup or resized) of a resized struct in
  // test_datatypes: a one-element trial keeps the copy only if it packs as the original does.
  MPI_Aint lb = 0, extent = 0;
  MPI_Datatype copy = MPI_DATATYPE_NULL;
  if (PMPI_Type_get_extent(type_, &lb, &extent) != MPI_SUCCESS ||
      PMPI_Type_create_resized(type_, lb, extent, &copy) != MPI_SUCCESS || PMPI_Type_commit(&copy) != MPI_SUCCESS)
    return;
  if (packed_bytes_of_one(buffer_, copy) != packed_bytes_of_one(buffer_, type_)) {
    PMPI_Type_free(&copy);
    return;
  }
  type_ = copy;
  held_ = true;
}

MessageBytes::~MessageBytes() {
  if (held_) PMPI_Type_free(&type_);
}


void MessageBytes::unpack() {
  if (packed_.empty()) return;
  int position = 0;
  const BottomFree out(buffer_, count_, type_);
  PMPI_Unpack(packed_.data(), static_cast<int>(bytes_), &position, out.buffer(), out.count(), out.type(), MPI_COMM_SELF);
}

AlltoallBytes::AlltoallBytes(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, int ranks,
                             std::uint64_t total)
    : in_place(sendbuf == MPI_IN_PLACE),
      recv(recvbuf, recvcount * ranks, recvtype, total),
      send(in_place ? recvbuf : const_cast<void*>(sendbuf),
           in_place ? recvcount * ranks : sendcount * ranks, in_place ? recvtype : sendtype, total) {}

}  // namespace mcorecoll
