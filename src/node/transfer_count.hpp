// The counted build (meson option count_transfers, test/mpi/test_transfer_counts.c): every
// algorithm says where it posts a flag and where it reads another rank's area after waiting for
// one, so that a test can replay the hand-offs of one call across ranks: the longest chain of
// waits and the lines each rank reads. Off, the hooks are empty inline functions.
//
// Each event is recorded per process, in program order (node/transfer_events.h); the progress
// helper thread may run algorithms too, so the record is locked. A read of a rank's own area is
// no transfer and is not recorded, nor are the waits for a reader to be done with an area (they
// hold a later call back, not this one). What the node leaders send across nodes is recorded
// too: the shape of the traffic, which the timings on hosts of one machine cannot show.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "node/transfer_events.h"

namespace mcorecoll {

class CommContext;

#if MCORECOLL_COUNT_TRANSFERS
// This rank stored `value` into `word` of its communicator's segment (ctx.channel.shm).
void count_post(CommContext& ctx, const std::atomic<std::uint64_t>& word, std::uint64_t value);
// This rank read `bytes` of node rank `from`'s area, which `word` reaching `value` made legal.
void count_read(CommContext& ctx, const std::atomic<std::uint64_t>& word, std::uint64_t value, int from,
                std::size_t bytes);
// This node leader sends `bytes` to other nodes: `what` MCORECOLL_NETWORK_MESSAGE, one message of
// its own to node `to_node`'s leader; else what other nodes need of its data in the MPI
// library's collective `what` among the leaders (to_node -1: its send side, but what stays on
// this node, such as a gather root's own blocks or a reduce root's partial). The counts a test
// holds to each algorithm's formula.
void count_network(int what, int to_node, std::uint64_t bytes);
// The same for `count` elements of `type`.
void count_network_elements(int what, int to_node, int count, MPI_Datatype type);
#else
inline void count_post(CommContext&, const std::atomic<std::uint64_t>&, std::uint64_t) {}
inline void count_read(CommContext&, const std::atomic<std::uint64_t>&, std::uint64_t, int, std::size_t) {}
inline void count_network(int, int, std::uint64_t) {}
inline void count_network_elements(int, int, int, MPI_Datatype) {}
#endif

}  // namespace mcorecoll
