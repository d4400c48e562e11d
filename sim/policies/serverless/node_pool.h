// File: sim/policies/serverless/node_pool.h
// Nodes for the request queue's ordered containers (std::set, std::map) from a free list: a
// queued request inserts and erases nodes, and malloc/free for them were 7 % of the instructions
// of `parallax bench serverless` (docs/performance.md "Serverless at scale"). A freed node goes
// back on the list and the next insert takes it; new ones are cut from chunks of 256. One pool
// serves one node size (its first request's) and must outlive the containers that use it.
//
//   NodePool pool;
//   std::set<int, std::less<>, PoolAllocator<int>> s{PoolAllocator<int>(pool)};
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <stdexcept>
#include <vector>

namespace parallax {

class NodePool {
 public:
  NodePool() = default;
  NodePool(const NodePool&) = delete;
  NodePool& operator=(const NodePool&) = delete;
  ~NodePool() {
    for (std::byte* chunk : chunks_) ::operator delete(chunk);
  }

  void* take(size_t bytes) {
    if (node_bytes_ == 0) node_bytes_ = rounded(std::max(bytes, sizeof(Free)));
    if (rounded(bytes) > node_bytes_) throw std::logic_error("NodePool: a node larger than the pool's");
    if (free_ == nullptr) refill();
    Free* node = free_;
    free_ = node->next;
    return node;
  }
  void give(void* node) { free_ = new (node) Free{free_}; }

 private:
  struct Free {
    Free* next;
  };
  static constexpr size_t kChunkNodes = 256;
  static size_t rounded(size_t bytes) {
    constexpr size_t a = alignof(std::max_align_t);
    return (bytes + a - 1) / a * a;
  }
  void refill() {
    chunks_.reserve(chunks_.size() + 1);  // so that the push below cannot throw and leak
    auto* chunk = static_cast<std::byte*>(::operator new(kChunkNodes * node_bytes_));
    chunks_.push_back(chunk);
    for (size_t i = kChunkNodes; i-- > 0;) give(chunk + i * node_bytes_);  // handed out in address order
  }

  size_t node_bytes_ = 0;
  Free* free_ = nullptr;
  std::vector<std::byte*> chunks_;
};

// Single nodes from a NodePool; anything else (never asked for by node-based containers) from
// the heap.
template <class T>
class PoolAllocator {
 public:
  using value_type = T;
  explicit PoolAllocator(NodePool& pool) : pool_(&pool) {}
  template <class U>
  PoolAllocator(const PoolAllocator<U>& other) : pool_(other.pool()) {}  // NOLINT: rebinding converts implicitly
  T* allocate(size_t n) { return n == 1 ? static_cast<T*>(pool_->take(sizeof(T))) : std::allocator<T>().allocate(n); }
  void deallocate(T* p, size_t n) {
    if (n == 1) {
      pool_->give(p);
    } else {
      std::allocator<T>().deallocate(p, n);
    }
  }
  NodePool* pool() const { return pool_; }
  template <class U>
  bool operator==(const PoolAllocator<U>& other) const {
    return pool_ == other.pool();
  }

 private:
  NodePool* pool_;
};

}  // namespace parallax
