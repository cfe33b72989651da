// Where one rank sits inside its node: package (socket), NUMA domain and last-level cache,
// derived with hwloc from the cores the rank is bound to. No MPI here.
#pragma once

#include <hwloc.h>

#include <string>
#include <vector>

namespace mcorecoll {

// -1 in a field: the binding is not inside one object of that kind (unbound, or spans two).
struct Place {
  int package = -1;
  int numa = -1;     // hwloc logical index
  int numa_os = -1;  // OS index, for mbind
  int cache = -1;    // logical index of the last-level cache object
};

// Loaded hwloc topology: the machine's, or a synthetic one (test knob).
class Topology {
 public:
  // Empty `synthetic`: this machine. Throws std::runtime_error naming the problem.
  explicit Topology(const std::string& synthetic);
  ~Topology();
  Topology(const Topology&) = delete;
  Topology& operator=(const Topology&) = delete;

  hwloc_topology_t get() const { return topo_; }
  // Place of a set of PUs (by OS index).
  Place place_of_pus(const std::vector<int>& pus) const;
  // Place of this process as currently bound.
  Place place_of_this_process() const;
  // Number of PUs in the machine (or synthetic topology).
  int pu_count() const;
  // The node's shape, for what is valid only on such a node (decisions/learned_file.hpp):
  // "AMD EPYC 7B13 (1 package, 1 NUMA domain, 2 cores, 2 PUs)".
  std::string shape() const;

 private:
  Place place_of(hwloc_const_cpuset_t binding) const;
  hwloc_topology_t topo_ = nullptr;
};

}  // namespace mcorecoll
