#include "topology/placement.hpp"

#include <stdexcept>

namespace mcorecoll {
namespace {

// Logical index of the object of `type` whose cpuset contains all of `binding`, or -1.
hwloc_obj_t containing(hwloc_topology_t topo, hwloc_obj_type_t type,
                             hwloc_const_cpuset_t binding) {
  const int n = hwloc_get_nbobjs_by_type(topo, type);
  for (int i = 0; i < n; ++i) {
    hwloc_obj_t obj = hwloc_get_obj_by_type(topo, type, static_cast<unsigned>(i));
    if (obj->cpuset && hwloc_bitmap_isincluded(binding, obj->cpuset)) return obj;
  }
  return nullptr;
}

// The last-level cache type present in the topology (L3 usually), or HWLOC_OBJ_TYPE_MAX.
hwloc_obj_type_t last_level_cache(hwloc_topology_t topo) {
  const hwloc_obj_type_t caches[] = {HWLOC_OBJ_L5CACHE, HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L3CACHE,
                                     HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE};
  for (hwloc_obj_type_t t : caches)
    if (hwloc_get_nbobjs_by_type(topo, t) > 0) return t;
  return HWLOC_OBJ_TYPE_MAX;
}

}  // namespace

Topology::Topology(const std::string& synthetic) {
  if (hwloc_topology_init(&topo_) != 0) throw std::runtime_error("hwloc_topology_init failed");
  if (!synthetic.empty() && hwloc_topology_set_synthetic(topo_, synthetic.c_str()) != 0) {
    hwloc_topology_destroy(topo_);
    topo_ = nullptr;
    throw std::runtime_error("MCORECOLL_TEST_TOPOLOGY: invalid hwloc synthetic description '" +
                             synthetic + "'");
  }
  if (hwloc_topology_load(topo_) != 0) {
    hwloc_topology_destroy(topo_);
    topo_ = nullptr;
    throw std::runtime_error("hwloc could not load the topology");
  }
}

Topology::~Topology() {
  if (topo_) hwloc_topology_destroy(topo_);
}

int Topology::pu_count() const { return hwloc_get_nbobjs_by_type(topo_, HWLOC_OBJ_PU); }

std::string Topology::shape() const {
  auto count = [&](hwloc_obj_type_t type, const char* one, const char* many) {
    const int n = hwloc_get_nbobjs_by_type(topo_, type);
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  const char* model = nullptr;
  if (hwloc_obj_t package = hwloc_get_obj_by_type(topo_, HWLOC_OBJ_PACKAGE, 0))
    model = hwloc_obj_get_info_by_name(package, "CPUModel");
  return std::string(model && *model ? model : "unknown CPU") + " (" + count(HWLOC_OBJ_PACKAGE, "package", "packages") +
         ", " + count(HWLOC_OBJ_NUMANODE, "NUMA domain", "NUMA domains") + ", " +
         count(HWLOC_OBJ_CORE, "core", "cores") + ", " + count(HWLOC_OBJ_PU, "PU", "PUs") + ")";
}

Place Topology::place_of(hwloc_const_cpuset_t binding) const {
  Place p;
  if (hwloc_bitmap_iszero(binding)) return p;
  if (hwloc_obj_t o = containing(topo_, HWLOC_OBJ_PACKAGE, binding))
    p.package = static_cast<int>(o->logical_index);
  if (hwloc_obj_t o = containing(topo_, HWLOC_OBJ_NUMANODE, binding)) {
    p.numa = static_cast<int>(o->logical_index);
    p.numa_os = static_cast<int>(o->os_index);
  }
  const hwloc_obj_type_t llc = last_level_cache(topo_);
  if (llc != HWLOC_OBJ_TYPE_MAX)
    if (hwloc_obj_t o = containing(topo_, llc, binding)) p.cache = static_cast<int>(o->logical_index);
  return p;
}

Place Topology::place_of_pus(const std::vector<int>& pus) const {
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  for (int pu : pus)
    if (hwloc_get_pu_obj_by_os_index(topo_, static_cast<unsigned>(pu))) hwloc_bitmap_set(set, pu);
  Place p = place_of(set);
  hwloc_bitmap_free(set);
  return p;
}

Place Topology::place_of_this_process() const {
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  if (hwloc_get_cpubind(topo_, set, HWLOC_CPUBIND_PROCESS) != 0) hwloc_bitmap_zero(set);
  Place p = place_of(set);
  hwloc_bitmap_free(set);
  return p;
}

}  // namespace mcorecoll
