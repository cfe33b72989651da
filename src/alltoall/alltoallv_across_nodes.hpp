// MPI_Alltoallv on a communicator that spans nodes: one message a pair of nodes. Only each pair
// of ranks knows the size of its block, so before any rank can route the call the ranks agree,
// in one round, on the call's largest block and on what the node phases need
// (agree_alltoallv_sizes()); then:
//  1. inside each node, the blocks between its ranks through the staged exchange, a tile per
//     destination (as inside one node: alltoallv_shm.hpp);
//  2. each rank's blocks for the other nodes gathered at its node's leader as one package: what
//     the rank receives from each node, the sizes of its blocks and the blocks, for the ranks of
//     the other nodes in node order, node rank by node rank (the staged gather, gather_shm.hpp);
//  3. the leaders' PMPI_Alltoallv: node A's message to node B holds the blocks of every rank of A
//     for every rank of B, by destination and then by source (A's leader knows every size from
//     its packages; B's cuts the message by what each of its ranks receives from A);
//  4. each leader scatters to its ranks what came for them, node by node (the staged scatter,
//     scatter_shm.hpp), and every rank puts each block in its place by its own receive counts.
// The sizes travel inside the node (a package holds one size a rank of the other nodes), never
// across the network. Written once, as resumable rounds run by the across-nodes driver
// (progress/across_nodes_phases.hpp): the blocking form pays the round at each call, the
// persistent one (ialltoallv_across_nodes.hpp) once at its initialization; the non-blocking one
// is the MPI library's (a call may not wait for the round).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "common/block_bytes.hpp"
#include "exchange/staged_exchange.hpp"
#include "progress/across_nodes_phases.hpp"
#include "progress/leader_messages.hpp"

namespace mcorecoll {

class CommContext;
struct Config;

// What a rank tells the round: its largest block (kNotOurs where its arguments are the MPI
// library's to judge; the others then 0), its package's bytes, the bytes it receives from the
// other nodes, its largest block to a rank of its own node.
struct AlltoallvShare {
  std::uint64_t largest = 0, package = 0, incoming = 0, inside = 0;
};

// What the round gives: `largest` equal on every rank (kNotOurs: every rank to PMPI, also where a
// node's bytes pass an int's count, the leaders' PMPI_Alltoallv's), the rest equal on each node.
struct AlltoallvSizes {
  std::uint64_t largest = 0;
  std::uint64_t package_most = 0;   // the node's largest package
  std::uint64_t incoming_most = 0;  // the node's most bytes from other nodes to one rank
  std::uint64_t inside_most = 0;    // the node's largest block between two of its ranks
  std::vector<std::uint64_t> packages;  // a leader's: each node rank's package bytes
};

// This rank's share from its blocks' sizes (`send_sizes`, `recv_sizes`: bytes, by rank).
AlltoallvShare alltoallv_share(const CommContext& ctx, std::uint64_t largest, const std::uint64_t* send_sizes,
                               const std::uint64_t* recv_sizes);

// The round: every rank's share on its node's header line, the leaders' PMPI_Allreduce of the
// largest (8 bytes a leader), the answer on a second line. Collective over the communicator. A
// failed exchange among the leaders gives kNotOurs: every rank then calls the MPI library.
AlltoallvSizes agree_alltoallv_sizes(CommContext& ctx, const Config& config, const AlltoallvShare& mine);

// The blocks a rank sends, by destination rank: where their bytes are (the send buffer packed,
// or in place a copy of the receive buffer as it was) and how many.
struct SentBlocks {
  std::vector<const char*> where;
  std::vector<std::uint64_t> bytes;
  // As the exchange inside the node reads them (alltoallv_shm.hpp's Send).
  const char* data(int d) const { return where[static_cast<std::size_t>(d)]; }
  std::uint64_t size(int d) const { return bytes[static_cast<std::size_t>(d)]; }
};

// The rounds' room, kept from call to call: this rank's package and what came for it; at a
// leader, its node's packages, the messages to and from the other leaders, and its ranks' parts.
struct AlltoallvRooms {
  std::vector<char> package, incoming, gathered, wire, arrived, parts;
};

class AlltoallvAcrossNodesRounds : public AcrossNodesPhases<AlltoallvAcrossNodesRounds> {
 public:
  // `sizes`, `send`, `recv` (the blocks from each rank, left packed: the caller unpacks) and
  // `rooms` are kept by reference: they outlive the rounds.
  AlltoallvAcrossNodesRounds(CommContext& ctx, const Config& config, const AlltoallvSizes& sizes,
                             const SentBlocks& send, BlockBytes& recv, AlltoallvRooms& rooms, bool blocking);
  // Made in place and never moved: its exchanges hold pointers into it (the gathered packages,
  // the parts).
  AlltoallvAcrossNodesRounds(const AlltoallvAcrossNodesRounds&) = delete;
  AlltoallvAcrossNodesRounds& operator=(const AlltoallvAcrossNodesRounds&) = delete;
  std::uint64_t moves() const;

 private:
  friend class AcrossNodesPhases<AlltoallvAcrossNodesRounds>;
  bool node_step(bool, int* waiting_on);
  bool leaders_step();
  bool hand_out_step(bool, int* waiting_on);
  void pack();     // this rank's package, and at a leader the node's packages' layout
  void post();     // a leader's messages for the other nodes, and what it receives
  void cut();      // a leader's arrivals into its ranks' parts
  void place();    // this rank's part into its blocks

  CommContext& ctx_;
  const Config& config_;
  const AlltoallvSizes& sizes_;
  const SentBlocks& send_;
  BlockBytes& recv_;
  AlltoallvRooms& rooms_;
  bool blocking_;
  std::size_t remote_ = 0;         // the ranks of the other nodes
  std::uint64_t package_ = 0;      // this rank's package's bytes
  std::uint64_t incoming_ = 0;     // the bytes this rank receives from the other nodes
  std::vector<int> counts_, displs_;            // a leader's: the packages, by node rank
  std::vector<int> part_counts_, part_displs_;  // a leader's: its ranks' parts
  std::vector<int> send_counts_, send_displs_;  // a leader's: the leaders' exchange, by node
  std::vector<int> recv_counts_, recv_displs_;
  std::optional<BlockBytes> gathered_, parts_;
  std::optional<ExchangeRounds> inside_, gather_, scatter_;
  bool posted_ = false;
  LeaderMessages leaders_;
};

// The blocking form: the rounds to the end. Returns an MPI error code (a leader's exchange's).
int alltoallv_across_nodes(CommContext& ctx, const Config& config, const AlltoallvSizes& sizes,
                           const SentBlocks& send, BlockBytes& recv);

}  // namespace mcorecoll
