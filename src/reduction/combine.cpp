#include "reduction/combine.hpp"

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace mcorecoll {
namespace {

template <typename T, typename F>
void loop(const void* in, void* inout, int count, F f) {
  const T* __restrict a = static_cast<const T*>(in);
  T* __restrict b = static_cast<T*>(inout);
  for (int i = 0; i < count; ++i) b[i] = f(a[i], b[i]);
}

// Integers wrap, as the MPI libraries' own loops do in practice (signed overflow is undefined
// in C++: the arithmetic is done unsigned).
template <typename T>
T add(T a, T b) {
  if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) + static_cast<std::make_unsigned_t<T>>(b));
  else return a + b;
}
template <typename T>
T multiply(T a, T b) {
  if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) * static_cast<std::make_unsigned_t<T>>(b));
  else return a * b;
}

// in op inout for the arithmetic ops, on one element type; false for other ops.
template <typename T>
bool arithmetic(MPI_Op op, const void* in, void* inout, int count) {
  if (op == MPI_SUM) loop<T>(in, inout, count, add<T>);
  else if (op == MPI_PROD) loop<T>(in, inout, count, multiply<T>);
  else if (op == MPI_MAX) loop<T>(in, inout, count, [](T a, T b) { return std::max(a, b); });
  else if (op == MPI_MIN) loop<T>(in, inout, count, [](T a, T b) { return std::min(a, b); });
  else return false;
  return true;
}

}  // namespace

int combine(const void* in, void* inout, int count, MPI_Datatype type, MPI_Op op) {
  // MAX and MIN of floating point go to the MPI library: its treatment of NaN is the one
  // the application gets without mcorecoll, and std::max is not the same.
  bool done = false;
  if (type == MPI_DOUBLE) done = (op == MPI_SUM || op == MPI_PROD) && arithmetic<double>(op, in, inout, count);
  else if (type == MPI_FLOAT) done = (op == MPI_SUM || op == MPI_PROD) && arithmetic<float>(op, in, inout, count);
  else if (type == MPI_INT) done = arithmetic<int>(op, in, inout, count);
  else if (type == MPI_LONG) done = arithmetic<long>(op, in, inout, count);
  else if (type == MPI_LONG_LONG) done = arithmetic<long long>(op, in, inout, count);
  else if (type == MPI_INT64_T) done = arithmetic<std::int64_t>(op, in, inout, count);
  else if (type == MPI_UNSIGNED) done = arithmetic<unsigned>(op, in, inout, count);
  else if (type == MPI_UNSIGNED_LONG) done = arithmetic<unsigned long>(op, in, inout, count);
  else if (type == MPI_UINT64_T) done = arithmetic<std::uint64_t>(op, in, inout, count);
  if (done) return MPI_SUCCESS;
  return PMPI_Reduce_local(in, inout, count, type, op);
}

}  // namespace mcorecoll
