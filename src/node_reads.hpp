// Reading something from every rank of the node (alltoall: each rank's block for this rank):
// staggered, so that in step no rank's data has more than one reader, and with at most `cap`
// readers on any one rank's data at a time, because ranks fall out of step.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "node_shm.hpp"
#include "wait.hpp"

namespace mcorecoll {

// Calls read(r) once for every node rank r (this rank first, without waiting), each other
// rank once its `post` line has reached `seq`. Node rank i visits i + 1, i + 2, ... in turn;
// with a cap, a rank whose data already has `cap` readers is passed over and come back to.
template <typename Read>
void read_from_node(NodeShm& shm, int node_rank, int node_size, std::uint64_t seq, int cap,
                    Waiter& waiter, Read read) {
  read(node_rank);
  if (cap <= 0 || cap >= node_size - 1) {  // no cap, or one that cannot bind
    for (int i = 1; i < node_size; ++i) {
      const int r = (node_rank + i) % node_size;
      waiter.wait_for(shm.post(r), seq);
      read(r);
    }
    return;
  }
  std::vector<int> pending;
  for (int i = 1; i < node_size; ++i) pending.push_back((node_rank + i) % node_size);
  unsigned polls = 0;
  while (!pending.empty()) {
    std::size_t kept = 0;
    for (const int r : pending) {
      std::atomic<std::uint64_t>& readers = shm.readers(r);
      const bool ready = reached(shm.post(r).load(std::memory_order_acquire), seq);
      if (ready && readers.fetch_add(1, std::memory_order_acq_rel) < static_cast<std::uint64_t>(cap)) {
        read(r);
        readers.fetch_sub(1, std::memory_order_release);
        continue;
      }
      if (ready) readers.fetch_sub(1, std::memory_order_relaxed);
      pending[kept++] = r;
    }
    if (kept == pending.size()) waiter.backoff(polls);
    else polls = 0;
    pending.resize(kept);
  }
}

}  // namespace mcorecoll
