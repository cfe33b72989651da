#include "reduction/ireduce_shm.hpp"

#include "progress/rounds_operation.hpp"
#include "reduction/reduce_shm.hpp"

namespace mcorecoll {

std::unique_ptr<Operation> make_ireduce(CommContext& ctx, const Config& config, const void* sendbuf, void* recvbuf,
                                        int count, MPI_Datatype type, MPI_Op op, int root,
                                        const ElementLayout& layout, int algorithm) {
  return made_rounds<ReduceRounds>(ctx, [&ctx, &config, sendbuf, recvbuf, count, type, op, root, layout,
                                         algorithm](std::optional<ReduceRounds>& rounds) {
    rounds.emplace(ctx, config, sendbuf, recvbuf, count, type, op, root, layout, algorithm);
  });
}

}  // namespace mcorecoll
