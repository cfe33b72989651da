// MPI_Bcast of large messages on a communicator that spans nodes, over every rank of a node at
// once (lanes.hpp): where the root's node leader alone would send the whole message across the
// network, each of the root's node's ranks on a lane sends its slice of it (lanes.hpp: all n on
// nodes of equal size, else as many as the emptiest node has). Three phases:
//  1. inside the root's node, the message through the node's ring (ring_steps.hpp) from the root
//     to every rank (each keeps the whole: its node needs it);
//  2. each slice broadcast from the root's node by the MPI library's own bcast on its lane, every
//     lane at once;
//  3. inside every other node, the slices gathered (SlicesGather, lanes.hpp).
// The message as bytes in signature order (message_bytes.hpp): any datatype. Written once, as
// rounds run by the across-nodes driver (every rank of a slice in the middle phase, on its
// lane): the blocking form waits between steps, the non-blocking and persistent ones
// (make_ibcast_lanes) post the lane's MPI_Ibcast and test it.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "lanes/lanes.hpp"
#include "node/ring_steps.hpp"
#include "progress/across_nodes_phases.hpp"
#include "progress/operation.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// The slices, where they do not fill the message's own bytes exactly. Kept on the communicator
// by the blocking form, on the operation by the others.
struct BcastLanesRooms {
  std::vector<char> slices;
};

class BcastLanesRounds : public AcrossNodesPhases<BcastLanesRounds> {
 public:
  // `message`: the message's `bytes` (> 0) in signature order, packed at the root; the others'
  // are filled by the end (the caller unpacks).
  BcastLanesRounds(CommContext& ctx, const Config& config, char* message, std::uint64_t bytes, int root,
                   BcastLanesRooms& rooms, bool blocking);
  std::uint64_t moves() const;

 private:
  friend class AcrossNodesPhases<BcastLanesRounds>;
  bool node_step(bool, int* waiting_on);
  bool leaders_step();
  bool hand_out_step(bool, int* waiting_on);

  CommContext& ctx_;
  const Config& config_;
  char* message_;
  std::uint64_t bytes_;
  int root_, root_node_, root_local_;
  bool blocking_, exact_;
  std::uint64_t per_ = 0, mine_ = 0;  // a slice's room, this rank's slice's bytes
  char* all_ = nullptr;               // the slices, padded to n equal ones
  char* own_ = nullptr;               // this rank's slot in them
  MPI_Comm lanes_;
  NodeRingSteps ring_;
  std::optional<SlicesGather> gather_;
  LaneCall lane_;
};

// The three phases; `bytes`: the signature's size. Collective over `ctx`'s communicator.
int bcast_lanes(CommContext& ctx, const Config& config, void* buffer, int count, MPI_Datatype type, int root,
                std::uint64_t bytes);

// The non-blocking and persistent forms (the lanes' communicator made already).
std::unique_ptr<Operation> make_ibcast_lanes(CommContext& ctx, const Config& config, void* buffer, int count,
                                             MPI_Datatype type, int root, std::uint64_t bytes);

}  // namespace mcorecoll
