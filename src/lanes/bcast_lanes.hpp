// MPI_Bcast of large messages on a communicator that spans nodes, over every rank of a node at
// once (lanes.hpp): where the root's node leader alone would send the whole message across the
// network, each rank of the root's node sends 1/n of it. Three phases:
//  1. inside the root's node, the message through the node's ring (ring_steps.hpp) from the root
//     to every rank (each keeps the whole: its node needs it);
//  2. each slice broadcast from the root's node by the MPI library's own bcast on its lane, every
//     lane at once;
//  3. inside every other node, the slices gathered (AllgatherRounds, allgather_shm.hpp).
// The message as bytes in signature order (message_bytes.hpp): any datatype. Blocking form
// only; nodes of equal size.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace mcorecoll {

class CommContext;
struct Config;

// The three phases; `bytes`: the signature's size. Collective over `ctx`'s communicator.
int bcast_lanes(CommContext& ctx, const Config& config, void* buffer, int count, MPI_Datatype type, int root,
                std::uint64_t bytes);

}  // namespace mcorecoll
