// What a job learned in its own calls (decisions/learning.hpp), remembered for the next job
// that runs on the same kind of node, the same number of ranks a node and of nodes, the same
// MPI library and the same mcorecoll: the learned file. Those five make its key; the file's
// name comes from the key, so jobs of another shape or another MPI library keep files of their
// own, and its first lines repeat the key, so that a file copied or renamed into another key's
// place is refused, not believed. One rank reads it and hands it to the others
// (entry/learning.cpp); one rank writes it at the job's end, whole or not at all.
//
// The text, one fact a line:
//   # mcorecoll: sizes learned in a job's own calls (MCORECOLL_LEARN=auto)
//   node: AMD EPYC 7B13 (1 package, 1 NUMA domain, 2 cores, 2 PUs)
//   ranks-per-node: 2
//   nodes: 1
//   mpi: Open MPI v4.1.4, package: Debian OpenMPI, ...
//   mcorecoll: 0.1.0
//   learned: allreduce ranks=2 nodes=1 node-ranks=2 sizes=1K-2K row=shm other=pmpi path=pmpi mean-us=1.20/0.80 slowest-us=1.50/0.90
//   learned: bcast ranks=2 nodes=1 node-ranks=2 sizes=8K-16K row=shm other=pmpi,cma path=cma mean-us=2.10/2.40/1.30 slowest-us=...
// (the others in the order they were explored; the times of the row's path first, then the others')
// Pure: no MPI (unit-tested).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "decisions/collective.hpp"

namespace mcorecoll {

struct LearnedKey {
  std::string node;  // the node's shape: CPU model, packages, NUMA domains, cores, PUs
  int ranks_per_node = 0;  // of the world's fullest node
  int nodes = 0;
  std::string mpi;        // the first line of MPI_Get_library_version
  std::string mcorecoll;  // this library's version
};

// One size class of one collective on communicators of one shape, and what won there.
struct LearnedSize {
  Collective collective = Collective::barrier;
  int ranks = 0;       // the communicator's
  int nodes = 0;       // its nodes
  int node_ranks = 0;  // the ranks of its fullest node
  int size_class = 0;  // decisions/learning.hpp's size_class()
  std::string row, path;             // the row's path and the winner, by name
  std::vector<std::string> others;   // the other candidates, in the order explored
  std::vector<double> mean_us;       // the mean over ranks of each rank's own time: row, others
  std::vector<double> slowest_us;    // the slowest rank's
};

// "pmpi,cma": the others as the file and the report write them.
std::string others_text(const LearnedSize& s);
// "1.200/0.800/0.950": one time a candidate, with `decimals` digits after the point.
std::string times_text(const double* us, std::size_t n, int decimals);

// Same collective, communicator shape and size class.
bool same_place(const LearnedSize& a, const LearnedSize& b);

// "learned-<16 hex digits>.txt", from the key.
std::string learned_file_name(const LearnedKey& key);

std::string format_learned(const LearnedKey& key, const std::vector<LearnedSize>& sizes);

// Reads `text`. With `expected`, a key that differs is an error naming the field and both
// values (a file of another node shape, MPI library or mcorecoll: stale or foreign). False
// with *error saying what is wrong (and on which line); *sizes is then empty.
bool parse_learned(const std::string& text, const LearnedKey* expected, std::vector<LearnedSize>* sizes,
                   std::string* error);

// Where learned files live: MCORECOLL_LEARN_DIR as given, else $XDG_CACHE_HOME/mcorecoll,
// else $HOME/.cache/mcorecoll; empty where none (or "none" given): nothing is remembered.
std::string learned_directory(const std::string& given, const char* xdg_cache_home, const char* home);

// Writes `text` to `path` through a temporary file in its directory and a rename, so that a
// reader (another job) sees the old file or the new one, never a part; makes the directory if
// it is missing. False with *error naming the path and the system's reason.
bool write_whole(const std::string& path, const std::string& text, std::string* error);

// The file's text: false where there is none (*missing) or it cannot be read (*error).
bool read_whole(const std::string& path, std::string* text, bool* missing, std::string* error);

}  // namespace mcorecoll
