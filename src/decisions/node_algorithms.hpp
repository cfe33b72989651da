// The algorithms inside one node, each named, with the calls it accepts and the node's choice
// among them: the one place that says which of a collective's node algorithms runs. A row, a
// setting or learning may name one; `shm` (path 1) names the node's choice, and across nodes
// the composition of node and leaders' phases, whose node phase makes the node's choice.
// Everything here is decided from values equal on every rank (the call's bytes as the standard
// makes them equal, the node's size, settings checked equal). Pure; unit-tested.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/shm_layout.hpp"
#include "decisions/collective.hpp"
#include "decisions/config.hpp"

namespace mcorecoll {

// Path 1 of every collective with node algorithms: the node's choice (across nodes the
// composition).
constexpr int kNodeChoice = 1;

// Allreduce and reduce (reduction/reduce_shm.hpp), by the contribution's image (its elements'
// data with the gaps between them):
//  lines:  every rank's contribution on its record line, all folded by the rank(s) that need it;
//  tree:   the lines folded over a tree of consecutive ranks, the root's result read by the rest;
//  fold:   the staged rounds, every contribution folded whole by the rank(s) that need it;
//  slices: the staged rounds reduce-scattered by slices, then every slice gathered.
// lines, fold and slices fold each element over the ranks in rank order: the same bits. The
// tree brackets by its groups (doc/design/reductions.md).
// Across nodes also the lanes (lanes/reduce_lanes.hpp).
constexpr int kReductionShm = kNodeChoice, kReductionLanes = 2, kReductionLines = 3, kReductionTree = 4,
              kReductionFold = 5, kReductionSlices = 6;
// Allgather (allgather/allgather_shm.hpp), by the block:
//  lines:  every rank's block on its record line, every rank reads every line;
//  groups: the lines by groups, each group's leader posting its members' blocks on a second line;
//  staged: the staging areas, every rank's tile staged once and copied by every rank.
// Across nodes also the lanes (lanes/allgather_lanes.hpp).
constexpr int kAllgatherShm = kNodeChoice, kAllgatherLanes = 2, kAllgatherLines = 3, kAllgatherGroups = 4,
              kAllgatherStaged = 5;
// Barrier (barrier/barrier_shm.hpp):
//  poll: every rank posts its arrival and polls every other's (one line transfer of latency);
//  tree: one gather up the node's tree and one release back down (log n reads a rank).
constexpr int kBarrierShm = kNodeChoice, kBarrierPoll = 2, kBarrierTree = 3;
// Scan and exscan (reduction/scan_shm.hpp), by the contribution's image; one prefix tree, two
// carriers, the same bits:
//  lines:  the blocks on the ranks' record lines;
//  staged: in rounds through the reductions' staging areas.
constexpr int kScanShm = kNodeChoice, kScanLines = 2, kScanStaged = 3;

// Bytes of a slice below which the node folds whole (fold), on a node of at most
// MCORECOLL_REDUCE_FLAT_MAX ranks (measured up to 16; beyond it a line: predicted).
constexpr std::size_t kSliceMinBytes = 2048;

// Whether `path` is one of collective c's named node algorithms (not shm, lanes or pmpi).
bool node_algorithm(Collective c, int path);
// Whether collective c has node algorithms to choose among (allreduce, reduce, allgather,
// barrier, scan, exscan).
bool has_node_algorithms(Collective c);
// Whether node algorithm `path` of collective c takes a call of `bytes` (reductions and scans:
// the image; allgather: the block; barrier: 0) on a node of `node_size` ranks.
bool node_accepts(Collective c, int path, std::uint64_t bytes, int node_size);
// What `shm` takes inside one node: reductions a record line where it fits (the tree beyond
// MCORECOLL_REDUCE_FLAT_MAX ranks), else slices where every rank's slice reaches a least size,
// else fold; allgather lines where a block fits a line (groups beyond MCORECOLL_ALLGATHER_FLAT_MAX
// ranks), else staged; barrier poll up to MCORECOLL_BARRIER_ALL_POLL_MAX ranks, else tree; the
// scans lines where the image fits a line, else staged.
int node_choice(Collective c, std::uint64_t bytes, int node_size, const Config& config);
// The node algorithm that runs for path `path` (shm or a node algorithm of c) inside one node:
// `path` where it accepts the call, else the node's choice.
int node_algorithm_taken(Collective c, int path, std::uint64_t bytes, int node_size, const Config& config);
// The other algorithm of its kind (reductions: lines and tree, fold and slices; allgather: lines
// and groups; barrier: poll and tree; scans: lines and staged) where it accepts the call: what
// learning tries beside `path`. -1: none.
int node_algorithm_sibling(Collective c, int path, std::uint64_t bytes, int node_size);

}  // namespace mcorecoll
