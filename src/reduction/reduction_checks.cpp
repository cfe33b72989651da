#include "reduction/reduction_checks.hpp"

#include "common/message_bytes.hpp"
#include "common/shm_layout.hpp"
#include "node/comm_context.hpp"

namespace mcorecoll {

bool predefined_op(MPI_Op op) {
  for (MPI_Op p : {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND, MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR,
                   MPI_MAXLOC, MPI_MINLOC})
    if (op == p) return true;
  return false;
}

bool commutative(MPI_Op op) {
  int commute = 0;
  return PMPI_Op_commutative(op, &commute) == MPI_SUCCESS && commute;
}

const char* staged_reduction_refusal(MPI_Op op, MPI_Datatype type, int count, std::uint64_t bytes,
                                     ElementLayout* layout) {
  if (op == MPI_OP_NULL || op == MPI_REPLACE || op == MPI_NO_OP) return "an op only PMPI can judge";
  // Open MPI 4.1 and MPICH 4.0 refuse a predefined op on a derived datatype (MPI_ERR_OP): that
  // error is theirs to raise, through the communicator's handler.
  if (predefined_op(op) && !is_named(type)) return "a predefined op on a derived datatype";
  if (!element_layout(type, count, static_cast<std::size_t>(bytes), layout))
    return "a datatype whose data does not lie inside its extent";
  return nullptr;
}

const char* across_nodes_refusal(const CommContext& ctx, MPI_Op op, const ElementLayout& layout) {
  if (ctx.node_count == 1) return nullptr;
  if (!ctx.nodes_in_rank_order && !commutative(op))
    return "across nodes whose ranks are not consecutive, with an op that is not commutative";
  if (layout.extent > kLineBytes) return "across nodes: elements larger than 128 bytes";
  return nullptr;
}

}  // namespace mcorecoll
