#include "reduction/ireduce_across_nodes.hpp"

#include <vector>

#include "progress/rounds_operation.hpp"
#include "reduction/reduce_across_nodes.hpp"

namespace mcorecoll {

std::unique_ptr<Operation> make_ireduce_across_nodes(CommContext& ctx, const Config& config, const void* sendbuf,
                                                     void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                                                     int root, const ElementLayout& layout, std::uint64_t bytes) {
  struct Rooms {
    std::vector<char> partial, gathered, folded, packed;
  };
  return made_rounds<ReduceAcrossNodesRounds>(
      ctx, [&ctx, &config, sendbuf, recvbuf, count, type, op, root, layout, bytes,
            rooms = Rooms()](std::optional<ReduceAcrossNodesRounds>& rounds) mutable {
        rounds.emplace(ctx, config, sendbuf, recvbuf, count, type, op, root, layout, bytes,
                       ReduceRooms{rooms.partial, rooms.gathered, rooms.folded, rooms.packed}, false);
      });
}

}  // namespace mcorecoll
