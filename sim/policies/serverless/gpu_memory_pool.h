// File: sim/policies/serverless/gpu_memory_pool.h
// The memory manager of one GPU (Torpor §4.4, torpor:include/server/block_manager.hpp): all the
// model memory is reserved from the Platform at start in `block_bytes` (128 MiB) physical blocks;
// a model's weights are sub-allocated from them in `segment_bytes` (2 MiB, PyTorch's small
// segment) pieces, so models of different functions share blocks. A model is always allocated
// and freed whole. The pool never hands out more than it reserved: allocate() returns false
// instead, and the caller evicts.
#pragma once

#include <cstdint>

#include "sim/platform/platform.h"

namespace parallax {

class GpuMemoryPool {
 public:
  // Reserves floor(reserve_bytes / block_bytes) blocks on `gpu` (OutOfMemoryError from the
  // platform if the GPU is smaller).
  GpuMemoryPool(Platform& platform, GpuId gpu, int64_t reserve_bytes, int64_t block_bytes, int64_t segment_bytes);

  int64_t rounded(int64_t bytes) const;  // up to whole segments
  bool fits(int64_t bytes) const { return used_ + rounded(bytes) <= capacity_; }
  bool allocate(int64_t bytes);          // false (nothing taken) if it does not fit
  void free(int64_t bytes);              // bytes as given to allocate
  int64_t capacity_bytes() const { return capacity_; }
  int64_t used_bytes() const { return used_; }
  int64_t free_bytes() const { return capacity_ - used_; }
  int64_t peak_used_bytes() const { return peak_; }
  int64_t blocks() const { return blocks_; }

 private:
  int64_t blocks_ = 0, capacity_ = 0, segment_ = 0, used_ = 0, peak_ = 0;
};

}  // namespace parallax
