// File: sim/policies/serverless/gpu_memory_pool.cpp
#include "sim/policies/serverless/gpu_memory_pool.h"

#include <algorithm>
#include <stdexcept>

namespace parallax {

GpuMemoryPool::GpuMemoryPool(Platform& platform, GpuId gpu, int64_t reserve_bytes, int64_t block_bytes,
                             int64_t segment_bytes)
    : segment_(segment_bytes) {
  if (block_bytes <= 0 || segment_bytes <= 0 || block_bytes % segment_bytes != 0)
    throw std::invalid_argument("GpuMemoryPool: block size must be a positive multiple of the segment size");
  blocks_ = reserve_bytes / block_bytes;
  capacity_ = blocks_ * block_bytes;
  if (capacity_ > 0) platform.allocate(gpu, Bytes(capacity_));
}

int64_t GpuMemoryPool::rounded(int64_t bytes) const { return (bytes + segment_ - 1) / segment_ * segment_; }

bool GpuMemoryPool::allocate(int64_t bytes) {
  if (!fits(bytes)) return false;
  used_ += rounded(bytes);
  peak_ = std::max(peak_, used_);
  return true;
}

void GpuMemoryPool::free(int64_t bytes) {
  const int64_t r = rounded(bytes);
  if (r > used_) throw std::logic_error("GpuMemoryPool::free: more than allocated");
  used_ -= r;
}

}  // namespace parallax
