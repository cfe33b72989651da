// Reading something from every rank of the node (alltoall: each rank's block for this rank):
// staggered, so that in step no rank's data has more than one reader, and with at most `cap`
// readers on any one rank's data at a time, because ranks fall out of step.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "node/node_shm.hpp"
#include "node/wait.hpp"

namespace mcorecoll {

// The reads of one operation, resumable: advance() reads from every rank that is ready and
// returns at once, true when every rank has been read. The blocking algorithms loop on it
// (read_from_node below), the non-blocking ones take one advance() per step.
class NodeReads {
 public:
  // Node rank i visits i + 1, i + 2, ... in turn; its own data first, without waiting.
  NodeReads(int node_rank, int node_size, std::uint64_t seq, int cap)
      : seq_(seq), cap_(cap <= 0 || cap >= node_size - 1 ? 0 : cap), own_(node_rank), size_(node_size) {
    // A cap that cannot bind is none. Without one, ranks are read in order and a count says
    // how far: no list to build (nor to allocate, on every call of the blocking forms).
    if (cap_ == 0) return;
    pending_.reserve(static_cast<std::size_t>(node_size));
    for (int i = 0; i < node_size; ++i) pending_.push_back((node_rank + i) % node_size);
  }

  // Calls read(r) for every node rank r not read yet whose `post` line has reached `seq` (and,
  // with a cap, whose data has fewer than `cap` readers); the rest stay for the next call.
  // Without a cap, ranks are read in order: the first one not ready ends the call.
  template <typename Read>
  bool advance(NodeShm& shm, Read read) {
    if (cap_ == 0) {
      for (; done_ < size_; ++done_) {
        int r = own_ + done_;
        if (r >= size_) r -= size_;
        if (r != own_ && !reached(shm.post(r).load(std::memory_order_acquire), seq_)) return false;
        read(r);
      }
      return true;
    }
    std::size_t kept = 0;
    for (std::size_t i = 0; i < pending_.size(); ++i) {
      const int r = pending_[i];
      const bool ready = r == own_ || reached(shm.post(r).load(std::memory_order_acquire), seq_);
      if (ready && r == own_) {
        read(r);
        continue;
      }
      if (ready) {
        std::atomic<std::uint64_t>& readers = shm.readers(r);
        if (readers.fetch_add(1, std::memory_order_acq_rel) < static_cast<std::uint64_t>(cap_)) {
          read(r);
          readers.fetch_sub(1, std::memory_order_release);
          continue;
        }
        readers.fetch_sub(1, std::memory_order_relaxed);
      }
      pending_[kept++] = r;
    }
    pending_.resize(kept);
    return pending_.empty();
  }

  std::size_t left() const { return cap_ == 0 ? static_cast<std::size_t>(size_ - done_) : pending_.size(); }
  // The next node rank to read, -1 when all are read.
  int next() const {
    if (cap_ == 0) return done_ == size_ ? -1 : (own_ + done_) % size_;
    return pending_.empty() ? -1 : pending_.front();
  }

 private:
  std::uint64_t seq_;
  int cap_;
  int own_, size_;
  int done_ = 0;              // without a cap: the ranks read so far, in visiting order
  std::vector<int> pending_;  // with one: node ranks not read yet, in visiting order
};

// Calls read(r) once for every node rank r (this rank first, without waiting), each other
// rank once its `post` line has reached `seq`, waiting for them.
template <typename Read>
void read_from_node(NodeShm& shm, int node_rank, int node_size, std::uint64_t seq, int cap,
                    Waiter& waiter, Read read) {
  NodeReads reads(node_rank, node_size, seq, cap);
  unsigned polls = 0;
  for (std::size_t left = reads.left(); !reads.advance(shm, read);) {
    if (reads.left() == left) waiter.backoff(polls);
    else polls = 0;
    left = reads.left();
  }
}

}  // namespace mcorecoll
